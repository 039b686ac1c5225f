import ChatDomain
import ChatHTTP

/// Finds, for an MCP server, its protected-resource metadata and its authorization server's, as
/// MCP's authorization spec says: the challenge's `resource_metadata` URL, else the well-known
/// URLs in order; then the first authorization server's metadata at its well-known URLs in
/// order, used only when its `issuer` is, byte for byte, the one asked for, and only when it
/// offers PKCE with S256.
struct MetadataDiscovery: Sendable {
    let http: OAuthHTTP

    /// What was found.
    struct Found: Sendable {
        var resource: ProtectedResourceMetadata
        /// The value of RFC 8707's `resource`: the metadata's `resource` when it is on the
        /// server's origin, else the server's URL.
        var resourceURI: String
        var server: AuthorizationServerMetadata
    }

    func discover(serverURL: String, challenge: BearerChallenge?) async -> Result<Found, SignInFailure> {
        let resourceURLs =
            challenge?.resourceMetadata.map { [$0] } ?? WellKnownURL.protectedResource(for: serverURL)
        var resource: ProtectedResourceMetadata?
        var lastPlace = URLPlace.of(serverURL)
        for url in resourceURLs {
            lastPlace = URLPlace.of(url)
            switch await http.get(url) {
            case .failure(let failure): return .failure(failure)
            case .success(let answer):
                guard answer.status == 200, let object = answer.object else { continue }
                guard let metadata = ProtectedResourceMetadata(object) else { return .failure(.noAuthorizationServer) }
                resource = metadata
            }
            if resource != nil { break }
        }
        guard let resource else { return .failure(.noResourceMetadata(place: lastPlace)) }
        let issuer = resource.authorizationServers[0]
        switch await serverMetadata(issuer: issuer) {
        case .failure(let failure): return .failure(failure)
        case .success(let server):
            let sameOrigin =
                resource.resource.map { URLOrigin($0) != nil && URLOrigin($0) == URLOrigin(serverURL) } ?? false
            return .success(
                Found(
                    resource: resource, resourceURI: sameOrigin ? resource.resource ?? serverURL : serverURL,
                    server: server))
        }
    }

    /// The metadata of the authorization server `issuer`, checked.
    func serverMetadata(issuer: String) async -> Result<AuthorizationServerMetadata, SignInFailure> {
        for url in WellKnownURL.authorizationServer(for: issuer) {
            switch await http.get(url) {
            case .failure(let failure): return .failure(failure)
            case .success(let answer):
                guard answer.status == 200, let object = answer.object else { continue }
                guard let metadata = AuthorizationServerMetadata(object) else {
                    return .failure(.badAnswer(what: "the authorization server metadata at \(URLPlace.of(url))"))
                }
                guard metadata.issuer == issuer else {
                    return .failure(
                        .issuerMismatch(
                            expected: ServerText.line(issuer, limit: 200),
                            found: ServerText.line(metadata.issuer, limit: 200)))
                }
                guard metadata.supportsPKCE else {
                    return .failure(.noPKCE(issuer: ServerText.line(issuer, limit: 200)))
                }
                return .success(metadata)
            }
        }
        return .failure(.noServerMetadata(issuer: ServerText.line(issuer, limit: 200)))
    }
}
