import ChatDomain
import ChatJSON

/// Chooses the client chat signs in as, in the order MCP's authorization spec gives: the entry's
/// pre-registered client; a client metadata document's URL the entry names, where the server
/// supports them; a client registered before with this server for the same redirect URI; dynamic
/// registration (RFC 7591, `application_type: "native"`); else the server needs a pre-registered
/// client.
struct ClientRegistration: Sendable {
    let http: OAuthHTTP

    func client(
        for server: OAuthServer, metadata: AuthorizationServerMetadata, redirectURI: String, scopes: [String]?,
        stored: RegisteredClient?
    ) async -> Result<RegisteredClient, SignInFailure> {
        if let id = server.client?.clientID {
            let secret = server.client?.clientSecret
            let methods = metadata.tokenEndpointAuthMethods
            let method =
                secret == nil
                ? "none"
                : methods == nil || methods?.contains("client_secret_basic") == true
                    ? "client_secret_basic" : "client_secret_post"
            return .success(
                RegisteredClient(kind: .preRegistered, clientID: id, clientSecret: secret, authMethod: method))
        }
        if let url = server.clientMetadataURL, metadata.clientMetadataDocuments {
            return .success(RegisteredClient(kind: .metadataDocument, clientID: url, authMethod: "none"))
        }
        if let stored, stored.kind == .dynamic, stored.redirectURI == redirectURI {
            return .success(stored)
        }
        guard let endpoint = metadata.registrationEndpoint else { return .failure(.needsPreRegisteredClient) }
        return await register(at: endpoint, redirectURI: redirectURI, scopes: scopes)
    }

    /// Registers chat as a native public client with `redirectURI`.
    private func register(at endpoint: String, redirectURI: String, scopes: [String]?) async
        -> Result<RegisteredClient, SignInFailure>
    {
        var request: [String: JSONValue] = [
            "redirect_uris": .array([.string(redirectURI)]), "client_name": .string("chat"),
            "grant_types": .array([.string("authorization_code"), .string("refresh_token")]),
            "response_types": .array([.string("code")]), "token_endpoint_auth_method": .string("none"),
            "application_type": .string("native"),
        ]
        if let scopes { request["scope"] = .string(scopes.joined(separator: " ")) }
        let body = Array((JSONValue.object(request).jsonText ?? "{}").utf8)
        switch await http.post(endpoint, body: body, contentType: "application/json") {
        case .failure(let failure):
            return .failure(failure)
        case .success(let answer):
            guard (200..<300).contains(answer.status) else {
                let (error, description) = answer.oauthError
                return .failure(.registrationRefused(status: answer.status, error: error, description: description))
            }
            guard let object = answer.object, let id = object["client_id"]?.string, !id.isEmpty else {
                return .failure(.badAnswer(what: "the registration's answer"))
            }
            let secret = object["client_secret"]?.string
            let method =
                object["token_endpoint_auth_method"]?.string ?? (secret == nil ? "none" : "client_secret_basic")
            return .success(
                RegisteredClient(
                    kind: .dynamic, clientID: id, clientSecret: secret, authMethod: method, redirectURI: redirectURI))
        }
    }
}
