import ChatDomain

/// The client chat signs in as, with one authorization server: pre-registered (the entry's
/// `oauth.client_id`), a client metadata document's URL, or registered dynamically (RFC 7591).
/// Kept in the token file with the tokens, for that issuer only.
package struct RegisteredClient: Sendable, Equatable {
    package enum Kind: String, Sendable {
        case preRegistered = "pre-registered"
        case metadataDocument = "metadata-document"
        case dynamic
    }

    package var kind: Kind
    package var clientID: String
    /// A secret, never shown: the entry's, or the one registration gave.
    package var clientSecret: String?
    /// How it authenticates at the token endpoint: `none`, `client_secret_basic` or
    /// `client_secret_post`.
    package var authMethod: String
    /// The redirect URI a dynamic registration named (the listener's port then).
    package var redirectURI: String?

    /// The client's credentials on a token request: form fields, and header fields.
    func credentials() -> (form: [(String, String)], headers: [(String, String)]) {
        switch (authMethod, clientSecret) {
        case ("client_secret_basic", let secret?):
            let pair = FormEncoding.escape(clientID) + ":" + FormEncoding.escape(secret)
            // The id in the form too: some servers (the MCP SDK's) look the client up by it.
            return ([("client_id", clientID)], [("Authorization", "Basic " + Base64.encode(Array(pair.utf8)))])
        case ("client_secret_post", let secret?):
            return ([("client_id", clientID), ("client_secret", secret)], [])
        default:
            return ([("client_id", clientID)], [])
        }
    }

    var json: JSONValue {
        var fields: [String: JSONValue] = [
            "kind": .string(kind.rawValue), "client_id": .string(clientID),
            "token_endpoint_auth_method": .string(authMethod),
        ]
        if let clientSecret { fields["client_secret"] = .string(clientSecret) }
        if let redirectURI { fields["redirect_uri"] = .string(redirectURI) }
        return .object(fields)
    }

    init(kind: Kind, clientID: String, clientSecret: String? = nil, authMethod: String, redirectURI: String? = nil) {
        self.kind = kind
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.authMethod = authMethod
        self.redirectURI = redirectURI
    }

    init?(json: JSONValue) {
        guard let kind = json["kind"]?.string.flatMap(Kind.init), let id = json["client_id"]?.string else {
            return nil
        }
        self.init(
            kind: kind, clientID: id, clientSecret: json["client_secret"]?.string,
            authMethod: json["token_endpoint_auth_method"]?.string ?? "none", redirectURI: json["redirect_uri"]?.string)
    }
}
