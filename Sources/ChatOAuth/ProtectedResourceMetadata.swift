import ChatDomain

/// A protected resource's metadata (RFC 9728): which authorization servers issue its tokens, its
/// canonical URI and the scopes it knows.
package struct ProtectedResourceMetadata: Sendable, Equatable {
    /// `resource`: the server's canonical URI, sent as RFC 8707's `resource`.
    package var resource: String?
    /// `authorization_servers`: their issuer identifiers (at least one).
    package var authorizationServers: [String]
    /// `scopes_supported`.
    package var scopesSupported: [String]?

    /// The metadata in `object`; nil when it names no authorization server.
    package init?(_ object: JSONValue) {
        let servers = (object["authorization_servers"]?.array ?? []).compactMap(\.string).filter { !$0.isEmpty }
        guard !servers.isEmpty else { return nil }
        authorizationServers = servers
        resource = object["resource"]?.string
        scopesSupported = object["scopes_supported"]?.array?.compactMap(\.string)
    }
}
