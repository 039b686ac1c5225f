/// Which proxy libcurl will use for a URL, read from the same environment variables it reads
/// (`http_proxy` in lower case only; `https_proxy`/`HTTPS_PROXY`, `all_proxy`/`ALL_PROXY`,
/// `no_proxy`/`NO_PROXY`), so a failure can name it. Only for messages: chat never sets
/// `CURLOPT_PROXY` unless the person configured a proxy.
package struct ProxyEnvironment {
    package var environment: [String: String]

    /// `URL (from SOURCE)`, or nil when requests to `url` go direct.
    package func proxy(for url: String, configured: String?) -> String? {
        if let configured, !configured.isEmpty { return "\(configured) (from the config's proxy)" }
        let lower = url.lowercased()
        let names: [String]
        if lower.hasPrefix("https://") {
            names = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        } else {
            names = ["http_proxy", "all_proxy", "ALL_PROXY"]
        }
        guard let name = names.first(where: { !(environment[$0] ?? "").isEmpty }), let value = environment[name] else {
            return nil
        }
        if bypasses(host: URLHost.of(lower) ?? lower) { return nil }
        return "\(value) (from \(name))"
    }

    private func bypasses(host: String) -> Bool {
        let list = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
        for entry in list.split(separator: ",").map({ $0.trimmingASCIIWhitespace().lowercased() }) where !entry.isEmpty
        {
            if entry == "*" { return true }
            let domain = entry.hasPrefix(".") ? String(entry.dropFirst()) : entry
            if host == domain || host.hasSuffix("." + domain) { return true }
        }
        return false
    }

    /// The proxy variables of `environment`.
    package init(environment: [String: String]) {
        self.environment = environment
    }
}
