import ChatSystem

/// Proof Key for Code Exchange (RFC 7636) with the S256 method, which MCP requires: a verifier of
/// 32 random bytes in base64url (43 characters), sent with the token request, and its challenge,
/// sent with the authorization request.
package struct PKCE: Sendable, Equatable {
    /// The method chat uses, and the one the authorization server must advertise.
    package static let method = "S256"

    /// The secret sent only to the token endpoint.
    package let verifier: String

    /// A given verifier (RFC 7636's appendix B is one).
    package init(verifier: String) {
        self.verifier = verifier
    }

    /// A new random verifier.
    package static func random() -> PKCE {
        PKCE(verifier: RandomText.make(bytes: 32))
    }

    /// BASE64URL(SHA256(ASCII(verifier))).
    package var challenge: String {
        Base64URL.encode(SHA256.digest(Array(verifier.utf8)))
    }
}
