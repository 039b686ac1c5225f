/// The origin of a URL (RFC 6454): its scheme, host and port, the scheme's default port filled
/// in. An API key belongs to the origin of the base URL configured beside it. Read as `URLHost`
/// reads the host (user info dropped, an IPv6 host in brackets), lowercased.
package struct URLOrigin: Equatable, CustomStringConvertible {
    var scheme: String
    var host: String
    var port: Int

    /// The origin of `url`, or nil when it has no `scheme://` or its port is not a number.
    package init?(_ url: String) {
        guard let colon = url.firstIndex(of: ":"), url[colon...].hasPrefix("://"), let host = URLHost.of(url) else {
            return nil
        }
        scheme = url[..<colon].lowercased()
        var authority = url[url.index(colon, offsetBy: 3)...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let afterHost = host.hasPrefix("[") ? authority.drop { $0 != "]" }.dropFirst() : authority.drop { $0 != ":" }
        if afterHost.hasPrefix(":") && afterHost.count > 1 {
            guard let port = Int(afterHost.dropFirst()) else { return nil }
            self.port = port
        } else {
            port = scheme == "https" ? 443 : scheme == "http" ? 80 : 0
        }
        self.host = host
    }

    /// `scheme://host`, with `:port` when it is not the scheme's default.
    package var description: String {
        let standard = (scheme == "https" && port == 443) || (scheme == "http" && port == 80)
        return "\(scheme)://\(host)" + (standard ? "" : ":\(port)")
    }
}
