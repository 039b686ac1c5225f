/// One challenge of a `WWW-Authenticate` field (RFC 9110 §11.6.1): its scheme and either its
/// parameters or a token68. A field may hold several, separated by commas, each parameter's value
/// a token (read up to a comma or a space) or a quoted string (`\` escaping the next character),
/// with spaces, tabs and folded lines between the parts.
package struct AuthChallenge: Sendable, Equatable {
    /// The scheme, lowercased (`bearer`).
    package var scheme: String
    /// The parameters by lowercased name (the first of a name given twice).
    package var parameters: [String: String] = [:]
    /// The token68 that stands in place of parameters (`Basic dXNlcg==`), if any.
    package var token68: String?

    /// The challenges of `field`, in order; none when it holds none.
    package static func parse(_ field: String) -> [AuthChallenge] {
        var scanner = Scanner(bytes: Array(field.utf8))
        var challenges: [AuthChallenge] = []
        while true {
            scanner.skip { $0 == UInt8(ascii: ",") || Scanner.isSpace($0) }
            guard let name = scanner.token() else {
                // Not a token where one must be: skip to the next comma and look again.
                guard scanner.skipPast(UInt8(ascii: ",")) else { break }
                continue
            }
            scanner.skip(Scanner.isSpace)
            if scanner.peek == UInt8(ascii: "="), !challenges.isEmpty, scanner.isParameterAfterEquals {
                // `name=value` of the current challenge.
                scanner.advance()
                scanner.skip(Scanner.isSpace)
                let value = scanner.quotedString() ?? scanner.bareValue()
                let key = name.lowercased()
                if challenges[challenges.count - 1].parameters[key] == nil {
                    challenges[challenges.count - 1].parameters[key] = value
                }
                continue
            }
            // A new challenge: `name` is its scheme; a token68 may follow.
            var challenge = AuthChallenge(scheme: name.lowercased())
            let mark = scanner.position
            if let token = scanner.token68() {
                scanner.skip(Scanner.isSpace)
                if scanner.atEnd || scanner.peek == UInt8(ascii: ",") {
                    challenge.token68 = token
                } else {
                    scanner.position = mark
                }
            }
            challenges.append(challenge)
        }
        return challenges
    }

    /// The bytes of a field, read left to right.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        var atEnd: Bool { position >= bytes.count }
        var peek: UInt8? { atEnd ? nil : bytes[position] }

        mutating func advance() { position += 1 }

        static func isSpace(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
                || byte == UInt8(ascii: "\n")
        }

        /// RFC 9110's tchar.
        static func isTokenByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default: "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }

        mutating func skip(_ condition: (UInt8) -> Bool) {
            while let byte = peek, condition(byte) { advance() }
        }

        /// Moves past the next `byte`; false when there is none.
        mutating func skipPast(_ byte: UInt8) -> Bool {
            while let next = peek {
                advance()
                if next == byte { return true }
            }
            return false
        }

        mutating func token() -> String? {
            let start = position
            skip(Self.isTokenByte)
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        /// An unquoted value: a token, read leniently up to the next comma or space (servers
        /// write `scope=files:write`, though `:` is not a token character).
        mutating func bareValue() -> String {
            let start = position
            skip { $0 != UInt8(ascii: ",") && !Self.isSpace($0) }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        /// A token68 (letters, digits, `-._~+/`, then `=`s).
        mutating func token68() -> String? {
            let start = position
            skip { Self.isTokenByte($0) && $0 != UInt8(ascii: "=") || $0 == UInt8(ascii: "/") }
            guard position > start else { return nil }
            skip { $0 == UInt8(ascii: "=") }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        /// Whether the `=` at the current position begins a parameter's value, not the padding
        /// of a token68 (`abc==`, `abc=` before a comma or the end).
        var isParameterAfterEquals: Bool {
            var next = position + 1
            while next < bytes.count, Self.isSpace(bytes[next]) { next += 1 }
            guard next < bytes.count else { return false }
            return bytes[next] != UInt8(ascii: "=") && bytes[next] != UInt8(ascii: ",")
        }

        /// A quoted string's content, its escapes undone; nil when no `"` is here. An
        /// unterminated one runs to the end.
        mutating func quotedString() -> String? {
            guard peek == UInt8(ascii: "\"") else { return nil }
            advance()
            var content: [UInt8] = []
            while let byte = peek {
                advance()
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\"), let escaped = peek {
                    content.append(escaped)
                    advance()
                } else {
                    content.append(byte)
                }
            }
            return String(decoding: content, as: UTF8.self)
        }
    }
}

/// What a resource server's `Bearer` challenge says (RFC 6750, RFC 9728): where its
/// protected-resource metadata is, the scope it wants, and the error.
package struct BearerChallenge: Sendable, Equatable {
    /// `resource_metadata`: the URL of the protected-resource metadata.
    package var resourceMetadata: String?
    /// `scope`: the scopes the request needs, space-separated.
    package var scope: String?
    /// `error` (`invalid_token`, `insufficient_scope`).
    package var error: String?
    /// `error_description`.
    package var errorDescription: String?

    /// The `Bearer` challenge of a `WWW-Authenticate` field; nil when it has none.
    package init?(field: String?) {
        guard let field, let bearer = AuthChallenge.parse(field).first(where: { $0.scheme == "bearer" }) else {
            return nil
        }
        resourceMetadata = bearer.parameters["resource_metadata"]
        scope = bearer.parameters["scope"]
        error = bearer.parameters["error"]
        errorDescription = bearer.parameters["error_description"]
    }

    /// The scopes `scope` names.
    package var scopes: [String]? {
        scope.map { $0.split(separator: " ").map(String.init) }.flatMap { $0.isEmpty ? nil : $0 }
    }
}
