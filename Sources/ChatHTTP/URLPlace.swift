import ChatDomain

/// A URL as it may be shown in a line or a `--verbose` log: its scheme, host, port and path, with
/// no credentials, query or fragment, made safe (`ServerText`).
package enum URLPlace {
    /// `url` without its credentials, query and fragment.
    package static func of(_ url: String) -> String {
        var rest = Substring(url.prefix { $0 != "?" && $0 != "#" })
        var scheme = ""
        if let range = rest.firstRange(of: "://") {
            scheme = String(rest[..<range.upperBound])
            rest = rest[range.upperBound...]
        }
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        return ServerText.line(scheme + rest, limit: 200)
    }
}
