import ChatDomain

/// Base64url without padding (RFC 4648 §5), as PKCE's verifier and challenge and the `state` of a
/// sign-in use it: the domain's Base64 with `-` and `_` for `+` and `/`, the `=` left off.
package enum Base64URL {
    /// `bytes` in base64url, unpadded.
    package static func encode(_ bytes: [UInt8]) -> String {
        String(
            Base64.encode(bytes).compactMap { character -> Character? in
                switch character {
                case "+": "-"
                case "/": "_"
                case "=": nil
                default: character
                }
            })
    }
}
