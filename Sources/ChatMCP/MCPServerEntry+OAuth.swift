import ChatDomain
import ChatHTTP
import ChatOAuth

extension MCPServerEntry {
    /// Reads an HTTP server's sign-in keys: `"oauth": {"client_id": …, "client_secret": …,
    /// "scopes": […]}` (a pre-registered client, and the scopes asked for; `${VAR}` expanded in the
    /// id and the secret, as in the entry's other values) and `"client_metadata_url"` (an https
    /// URL).
    mutating func readSignIn(_ value: JSONValue, _ environment: [String: String]) throws(ToolServerEntryProblem) {
        if let oauth = value["oauth"] {
            guard let object = oauth.object,
                object.keys.allSatisfy(["client_id", "client_secret", "scopes"].contains),
                object["client_id"].map({ $0.string != nil }) ?? true,
                object["client_secret"].map({ $0.string != nil }) ?? true,
                object["scopes"].map({ $0.array?.allSatisfy { $0.string != nil } == true }) ?? true
            else { throw .oauth }
            self.oauth = OAuthClientSettings(
                clientID: try object["client_id"]?.string.map { text throws(ToolServerEntryProblem) in
                    try Self.expand(text, environment)
                },
                clientSecret: try object["client_secret"]?.string.map { text throws(ToolServerEntryProblem) in
                    try Self.expand(text, environment)
                },
                scopes: object["scopes"]?.array?.compactMap(\.string))
        }
        if let url = value["client_metadata_url"] {
            guard let text = url.string, text.lowercased().hasPrefix("https://") else { throw .clientMetadataURL }
            clientMetadataURL = text
        }
    }

    /// The server as a sign-in sees it.
    var oauthServer: OAuthServer {
        OAuthServer(name: name, url: url ?? "", client: oauth, clientMetadataURL: clientMetadataURL)
    }

    /// Whether chat signs in to it when it asks: an HTTP server whose entry does not send an
    /// `Authorization` of its own.
    var signsIn: Bool {
        url != nil && !headers.keys.contains { $0.lowercased() == "authorization" }
    }
}

extension MCPNetworkSettings {
    /// The same CA file, proxy and diagnostics for a server's OAuth endpoints, through `http`.
    package func oauth(_ http: any HTTPClient) -> OAuthNetwork {
        let settings = self
        return OAuthNetwork(
            http: http, tls: tls, proxy: proxy, proxyInUse: { settings.proxyInUse(for: $0) }, log: log)
    }
}

/// What `--tools-login` and `--tools-logout` find for a server's name.
package enum SignInTarget: Sendable {
    /// An HTTP server chat may sign in to.
    case http(OAuthServer)
    /// A stdio server: it takes its credentials from its environment, not a sign-in.
    case stdio
    /// No server of that name is configured.
    case unknown
    /// Its entry cannot be used.
    case unusable(ToolServerProblem)
}

extension ToolSettings {
    /// The configured server `name`, as `--tools-login` signs in to it.
    package func signInTarget(_ name: String) -> SignInTarget {
        guard let value = serversValue?.object?[name] else { return .unknown }
        let parsed = MCPServerEntry.entries(in: .object([name: value]), environment: environment)
        if let problem = parsed.problems.first { return .unusable(problem) }
        guard let entry = parsed.entries.first else { return .unknown }
        return entry.url == nil ? .stdio : .http(entry.oauthServer)
    }
}
