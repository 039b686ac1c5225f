/// Unguessable text for a sign-in (a PKCE verifier, a `state`): bytes from the system's
/// cryptographically secure generator (`SystemRandomNumberGenerator`: `getrandom(2)` on Linux), in
/// base64url.
package enum RandomText {
    /// `count` random bytes in base64url (43 characters for 32 bytes).
    package static func make(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }
}
