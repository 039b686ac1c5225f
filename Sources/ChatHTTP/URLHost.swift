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
}
