/// What a server's entry says about signing in to it: a pre-registered client (`oauth`:
/// `client_id`, `client_secret`) and the scopes to ask for, or a client metadata document's URL
/// (`client_metadata_url`).
package struct OAuthClientSettings: Sendable, Equatable {
    /// `oauth.client_id`: a client registered with the authorization server beforehand.
    package var clientID: String?
    /// `oauth.client_secret` (its `${VAR}` expanded): a secret, never shown.
    package var clientSecret: String?
    /// `oauth.scopes`: the scopes asked for, whatever the server suggests.
    package var scopes: [String]?

    package init(clientID: String? = nil, clientSecret: String? = nil, scopes: [String]? = nil) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.scopes = scopes
    }
}

/// An MCP server chat may sign in to: its name in the config, its endpoint, and what its entry
/// says about the client.
package struct OAuthServer: Sendable, Equatable {
    package var name: String
    /// The MCP endpoint; tokens go to its origin only.
    package var url: String
    package var client: OAuthClientSettings?
    /// `client_metadata_url`: an https URL serving chat's client metadata document (CIMD).
    package var clientMetadataURL: String?

    package init(name: String, url: String, client: OAuthClientSettings? = nil, clientMetadataURL: String? = nil) {
        self.name = name
        self.url = url
        self.client = client
        self.clientMetadataURL = clientMetadataURL
    }
}
