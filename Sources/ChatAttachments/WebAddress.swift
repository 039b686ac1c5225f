import ChatDomain

/// A URL given to attach (`-f https://…`): recognised by its `scheme://`, checked to be an
/// `http` or `https` URL with a host and nothing unsafe in it, and resolved against (a redirect's
/// `Location`, which may be relative).
struct WebAddress: Equatable {
    /// The URL as it is fetched.
    let text: String

    /// Whether `path` is meant as a URL (it starts with `scheme://`), not a file's path.
    static func isURL(_ path: String) -> Bool {
        guard let range = path.firstRange(of: "://"), range.lowerBound > path.startIndex else { return false }
        let scheme = path[..<range.lowerBound]
        return scheme.first!.isASCII && scheme.first!.isLetter
            && scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
    }

    /// `text` as an address chat fetches: `http` or `https`, a host, no spaces or control
    /// characters; the fragment dropped (it is never sent).
    init?(_ text: String) {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else { return nil }
        guard
            text.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) })
        else { return nil }
        let withoutFragment = String(text.prefix { $0 != "#" })
        let authority = withoutFragment.drop { $0 != ":" }.dropFirst(3).prefix { $0 != "/" && $0 != "?" }
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        guard !host.isEmpty, !host.hasPrefix(":") else { return nil }
        self.text = withoutFragment
    }

    /// The URL as a line may show it: without credentials, made safe (`ServerText`).
    var shown: String {
        guard let range = text.firstRange(of: "://") else { return ServerText.line(text, limit: 300) }
        let rest = text[range.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        var kept = Substring(text[..<range.upperBound]) + rest
        if let at = rest[..<authorityEnd].lastIndex(of: "@") {
            kept = text[..<range.upperBound] + rest[rest.index(after: at)...]
        }
        return ServerText.line(String(kept), limit: 300)
    }

    /// Where `reference` (a `Location` value) points, read against this address (RFC 3986,
    /// section 5.2); nil unless that is an `http(s)` address.
    func resolving(_ reference: String) -> WebAddress? {
        let reference = reference.trimmingASCIIWhitespace()
        if Self.isURL(reference) { return WebAddress(reference) }
        // Another scheme (`mailto:`, `javascript:`) is no address to fetch.
        if let colon = reference.firstIndex(of: ":"),
            reference[..<colon].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }),
            reference.first?.isLetter == true
        {
            return nil
        }
        let (scheme, rest) = split(text)
        if reference.hasPrefix("//") { return WebAddress(scheme + ":" + reference) }
        let authorityEnd = rest.dropFirst(2).firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let origin = scheme + ":" + rest[..<authorityEnd]
        let pathAndQuery = rest[authorityEnd...]
        let path = String(pathAndQuery.prefix { $0 != "?" })
        if reference.isEmpty { return self }
        if reference.hasPrefix("?") { return WebAddress(origin + (path.isEmpty ? "/" : path) + reference) }
        if reference.hasPrefix("#") { return self }
        let (refPath, refQuery) = Self.pathAndQuery(reference)
        let merged: String
        if refPath.hasPrefix("/") {
            merged = refPath
        } else {
            let directory = path.isEmpty ? "/" : String(path[...(path.lastIndex(of: "/") ?? path.startIndex)])
            merged = (directory.hasPrefix("/") ? directory : "/" + directory) + refPath
        }
        return WebAddress(origin + Self.removingDotSegments(merged) + refQuery)
    }

    private func split(_ url: String) -> (scheme: String, rest: Substring) {
        let colon = url.firstIndex(of: ":")!
        return (String(url[..<colon]), url[url.index(after: colon)...])
    }

    private static func pathAndQuery(_ reference: String) -> (String, String) {
        let withoutFragment = reference.prefix { $0 != "#" }
        guard let question = withoutFragment.firstIndex(of: "?") else { return (String(withoutFragment), "") }
        return (String(withoutFragment[..<question]), String(withoutFragment[question...]))
    }

    /// `path` with its `.` and `..` segments applied.
    static func removingDotSegments(_ path: String) -> String {
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if !output.isEmpty { output.removeLast() }
                if last { output.append("") }
            default: output.append(segment)
            }
        }
        return "/" + output.joined(separator: "/")
    }
}
