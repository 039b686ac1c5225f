import ChatDomain
import ChatJSON

/// What chat keeps of one sign-in, keyed by the MCP server's URL and the issuer: the client, the
/// token endpoint and `resource` a refresh needs, the scopes asked for, and the tokens with the
/// access token's expiry. Secrets, never shown.
package struct TokenRecord: Sendable, Equatable {
    /// The MCP endpoint the tokens are for (their origin is the only one they go to).
    package var server: String
    package var issuer: String
    package var client: RegisteredClient
    package var tokenEndpoint: String
    /// RFC 8707's `resource`, sent again with each refresh.
    package var resource: String
    package var scopes: [String]?
    package var accessToken: String
    package var refreshToken: String?
    /// Seconds since 1970 when the access token expires; nil when the server did not say.
    package var expiresAt: Double?
    /// Seconds since 1970 when it was written: of two for one server, the newer is used.
    package var savedAt: Double

    /// Whether the access token expires within `margin` seconds of `now`.
    package func expires(within margin: Double, of now: Double) -> Bool {
        expiresAt.map { $0 - margin <= now } ?? false
    }

    /// `self` with `grant`'s tokens: a refresh token not given keeps the old one.
    func updated(with grant: TokenGrant, at now: Double) -> TokenRecord {
        var record = self
        record.accessToken = grant.accessToken
        record.refreshToken = grant.refreshToken ?? refreshToken
        record.expiresAt = grant.expiresAt
        record.savedAt = now
        return record
    }

    var json: JSONValue {
        var fields: [String: JSONValue] = [
            "server": .string(server), "issuer": .string(issuer), "client": client.json,
            "token_endpoint": .string(tokenEndpoint), "resource": .string(resource),
            "access_token": .string(accessToken), "saved_at": .number(savedAt),
        ]
        if let scopes { fields["scopes"] = .array(scopes.map { .string($0) }) }
        if let refreshToken { fields["refresh_token"] = .string(refreshToken) }
        if let expiresAt { fields["expires_at"] = .number(expiresAt) }
        return .object(fields)
    }

    init(
        server: String, issuer: String, client: RegisteredClient, tokenEndpoint: String, resource: String,
        scopes: [String]?, grant: TokenGrant, savedAt: Double
    ) {
        self.server = server
        self.issuer = issuer
        self.client = client
        self.tokenEndpoint = tokenEndpoint
        self.resource = resource
        self.scopes = scopes
        accessToken = grant.accessToken
        refreshToken = grant.refreshToken
        expiresAt = grant.expiresAt
        self.savedAt = savedAt
    }

    init?(json: JSONValue) {
        guard let server = json["server"]?.string, let issuer = json["issuer"]?.string,
            let client = json["client"].flatMap(RegisteredClient.init(json:)),
            let tokenEndpoint = json["token_endpoint"]?.string, let resource = json["resource"]?.string,
            let access = json["access_token"]?.string
        else { return nil }
        self.server = server
        self.issuer = issuer
        self.client = client
        self.tokenEndpoint = tokenEndpoint
        self.resource = resource
        scopes = json["scopes"]?.array?.compactMap(\.string)
        accessToken = access
        refreshToken = json["refresh_token"]?.string
        expiresAt = json["expires_at"]?.number
        savedAt = json["saved_at"]?.number ?? 0
    }
}

/// The tokens a token endpoint gave.
struct TokenGrant: Sendable, Equatable {
    var accessToken: String
    var refreshToken: String?
    /// Seconds since 1970 when the access token expires.
    var expiresAt: Double?
}
