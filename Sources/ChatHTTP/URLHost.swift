/// The host part of a URL, read as libcurl reads it: the authority ends at the path, the query or
/// the fragment (in `http://192.0.2.1#@127.0.0.1/v1` the host is 192.0.2.1), user info is
/// dropped, and so is the port; an IPv6 host keeps its brackets.
package enum URLHost {
    /// The lowercased host of `url`, or nil when `url` has no `scheme://`.
    package static func of(_ url: String) -> String? {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://") else { return nil }
        var host = url[url.index(colon, offsetBy: 3)...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = host.lastIndex(of: "@") { host = host[host.index(after: at)...] }
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") { return String(host[...close]).lowercased() }
        return String(host.prefix { $0 != ":" }).lowercased()
    }

    /// Whether `url` points at this machine.
    package static func isLoopback(_ url: String) -> Bool {
        guard let host = of(url) else { return false }
        if host.hasPrefix("[") { return host == "[::1]" }
        return host == "localhost" || host.hasSuffix(".localhost") || (isIPv4(host) && host.hasPrefix("127."))
    }

    /// Whether `url` points at this machine or the local network: a private IPv4 address
    /// (10/8, 172.16/12, 192.168/16), a name with no dot (a container's), or `.local`, `.lan`,
    /// `.internal`, `.home.arpa`.
    package static func isNearby(_ url: String) -> Bool {
        guard !isLoopback(url), let host = of(url) else { return isLoopback(url) }
        if isIPv4(host) {
            let octets = host.split(separator: ".").compactMap { Int($0) }
            guard octets.count == 4 else { return false }
            return octets[0] == 10 || (octets[0] == 172 && (16...31).contains(octets[1]))
                || (octets[0] == 192 && octets[1] == 168)
        }
        if host.hasPrefix("[") { return host.hasPrefix("[fd") || host.hasPrefix("[fc") }
        return !host.contains(".") || [".local", ".lan", ".internal", ".home.arpa"].contains { host.hasSuffix($0) }
    }

    private static func isIPv4(_ host: String) -> Bool {
        !host.isEmpty && host.allSatisfy { $0 == "." || ("0"..."9").contains($0) }
    }
}
