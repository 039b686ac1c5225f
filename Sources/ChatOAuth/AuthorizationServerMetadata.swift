import ChatDomain

/// An authorization server's metadata (RFC 8414, or OpenID Connect Discovery): its endpoints and
/// what it supports.
package struct AuthorizationServerMetadata: Sendable, Equatable {
    package var issuer: String
    package var authorizationEndpoint: String
    package var tokenEndpoint: String
    package var registrationEndpoint: String?
    /// `code_challenge_methods_supported`; absent: no PKCE, and chat does not go on.
    package var codeChallengeMethods: [String]?
    /// `client_id_metadata_document_supported`.
    package var clientMetadataDocuments: Bool
    /// `authorization_response_iss_parameter_supported` (RFC 9207): the callback must carry `iss`.
    package var sendsIssuer: Bool
    /// `token_endpoint_auth_methods_supported`; absent: `client_secret_basic` (RFC 8414).
    package var tokenEndpointAuthMethods: [String]?
    package var scopesSupported: [String]?

    /// The metadata in `object`; nil without an issuer and both endpoints.
    package init?(_ object: JSONValue) {
        guard let issuer = object["issuer"]?.string, let authorization = object["authorization_endpoint"]?.string,
            let token = object["token_endpoint"]?.string
        else { return nil }
        self.issuer = issuer
        authorizationEndpoint = authorization
        tokenEndpoint = token
        registrationEndpoint = object["registration_endpoint"]?.string
        codeChallengeMethods = object["code_challenge_methods_supported"]?.array?.compactMap(\.string)
        clientMetadataDocuments = object["client_id_metadata_document_supported"]?.bool ?? false
        sendsIssuer = object["authorization_response_iss_parameter_supported"]?.bool ?? false
        tokenEndpointAuthMethods = object["token_endpoint_auth_methods_supported"]?.array?.compactMap(\.string)
        scopesSupported = object["scopes_supported"]?.array?.compactMap(\.string)
    }

    /// Whether it supports PKCE with S256, which MCP requires.
    package var supportsPKCE: Bool {
        codeChallengeMethods?.contains(PKCE.method) == true
    }
}
