import ChatDomain
import ChatSystem

/// The authorization server's token endpoint: an authorization code redeemed (with the PKCE
/// verifier, the redirect URI and `resource`), and a refresh (`resource` again). The answer's
/// OAuth error and description are kept as facts, made safe.
struct TokenEndpoint: Sendable {
    let http: OAuthHTTP

    func redeem(
        code: String, verifier: String, redirectURI: String, client: RegisteredClient, resource: String,
        endpoint: String
    ) async -> Result<TokenGrant, SignInFailure> {
        let form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", verifier), ("resource", resource),
        ]
        return await request(endpoint, form, client: client, refreshing: false)
    }

    func refresh(_ record: TokenRecord) async -> Result<TokenGrant, SignInFailure> {
        guard let refreshToken = record.refreshToken else {
            return .failure(.refreshRefused(error: nil, description: nil))
        }
        let form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("resource", record.resource)]
        return await request(record.tokenEndpoint, form, client: record.client, refreshing: true)
    }

    private func request(_ endpoint: String, _ form: [(String, String)], client: RegisteredClient, refreshing: Bool)
        async -> Result<TokenGrant, SignInFailure>
    {
        let credentials = client.credentials()
        let body = Array(FormEncoding.encode(form + credentials.form).utf8)
        let sent = await http.post(
            endpoint, body: body, contentType: "application/x-www-form-urlencoded", headers: credentials.headers)
        switch sent {
        case .failure(let failure):
            return .failure(failure)
        case .success(let answer):
            guard answer.status == 200 else {
                let (error, description) = answer.oauthError
                return .failure(
                    refreshing
                        ? .refreshRefused(error: error, description: description)
                        : .tokenRefused(status: answer.status, error: error, description: description))
            }
            guard let object = answer.object, let access = object["access_token"]?.string, !access.isEmpty,
                object["token_type"]?.string.map({ $0.lowercased() == "bearer" }) ?? true
            else {
                return .failure(.badAnswer(what: "the token endpoint's answer"))
            }
            let expiresAt = object["expires_in"]?.number.map { WallClock.now() + $0 }
            return .success(
                TokenGrant(accessToken: access, refreshToken: object["refresh_token"]?.string, expiresAt: expiresAt))
        }
    }
}
