/// Hides secret header values in diagnostics: the API key's header whatever its name, and any
/// header whose name says it carries a key, token, secret, password or cookie.
enum HeaderRedaction {
    /// Whether `name`'s value is secret; `keyHeader` names the field the API key goes in.
    static func isSecret(_ name: String, keyHeader: String? = nil) -> Bool {
        let name = name.lowercased()
        return name == "authorization" || name == "proxy-authorization" || name == keyHeader?.lowercased()
            || ["key", "token", "secret", "password", "cookie", "auth"].contains { name.contains($0) }
    }

    /// `name: value` for a diagnostic line, the value redacted if secret.
    package static func line(_ name: String, _ value: String, keyHeader: String? = nil) -> String {
        "\(name): \(isSecret(name, keyHeader: keyHeader) ? "[redacted]" : value)"
    }
}
