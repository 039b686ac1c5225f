import ChatDomain
import ChatHTTP
import ChatSystem
import Synchronization

/// One sign-in to an MCP server, as MCP's authorization spec has it: metadata discovered and
/// checked, the client chosen, a one-shot loopback listener opened, the browser sent to the
/// authorization endpoint (PKCE S256, `state`, `resource`, the scopes), the callback checked
/// (`iss`, `state`), the code redeemed, and the tokens kept.
package struct SignInFlow: Sendable {
    package let server: OAuthServer
    package let settings: SignInSettings
    let http: OAuthHTTP

    package init(server: OAuthServer, settings: SignInSettings, network: OAuthNetwork) {
        self.server = server
        self.settings = settings
        http = OAuthHTTP(network: network)
    }

    /// Signs in after `challenge` (nil: none seen; the server is asked for one first), asking for
    /// more scopes than `previous` had when `stepUp`.
    package func run(challenge: BearerChallenge?, previous: TokenRecord? = nil, stepUp: Bool = false) async
        -> Result<TokenRecord, SignInFailure>
    {
        var challenge = challenge
        if challenge == nil { challenge = await askForChallenge() }
        let found: MetadataDiscovery.Found
        switch await MetadataDiscovery(http: http).discover(serverURL: server.url, challenge: challenge) {
        case .failure(let failure): return .failure(failure)
        case .success(let value): found = value
        }
        let metadata = found.server
        let scopes =
            stepUp
            ? ScopeSelection.stepUp(
                previous: previous?.scopes ?? [], challenge: challenge?.scopes,
                supported: found.resource.scopesSupported)
            : ScopeSelection.initial(
                configured: server.client?.scopes, challenge: challenge?.scopes,
                supported: found.resource.scopesSupported)
        let stored: TokenRecord?
        do {
            stored = try settings.store?.record(for: server.url, issuer: metadata.issuer)
        } catch {
            return .failure(error)
        }
        let listener: LoopbackListener
        do { listener = try LoopbackListener() } catch { return .failure(error) }
        defer { listener.close() }
        let client: RegisteredClient
        switch await ClientRegistration(http: http).client(
            for: server, metadata: metadata, redirectURI: listener.redirectURI, scopes: scopes, stored: stored?.client)
        {
        case .failure(let failure): return .failure(failure)
        case .success(let value): client = value
        }
        let pkce = PKCE.random()
        let state = RandomText.make(bytes: 16)
        var query = [
            ("response_type", "code"), ("client_id", client.clientID), ("redirect_uri", listener.redirectURI),
            ("state", state), ("code_challenge", pkce.challenge), ("code_challenge_method", PKCE.method),
            ("resource", found.resourceURI),
        ]
        if let scopes { query.append(("scope", scopes.joined(separator: " "))) }
        let endpoint = metadata.authorizationEndpoint
        let url = endpoint + (endpoint.contains("?") ? "&" : "?") + FormEncoding.encode(query)

        // The browser goes while the listener waits; the person is told which, as it happens.
        let opening = Task { await open(url) }
        let issuer = metadata.issuer
        let checked = CheckedCode()
        let request = await listener.next(within: settings.waitLimit) { request in
            guard request.method == "GET", request.path == "/callback" else {
                checked.set(.failure(.noCode))
                return (400, "chat expected the sign-in's callback here. Go back to the terminal.")
            }
            let result = CallbackCheck.code(
                in: request.query, state: state, issuer: issuer, issuerRequired: metadata.sendsIssuer)
            checked.set(result)
            switch result {
            case .success: return (200, "Signed in: chat has what it needs. You can close this tab.")
            case .failure: return (400, "chat refused this sign-in. Go back to the terminal to see why.")
            }
        }
        opening.cancel()
        guard request != nil, let result = checked.value else {
            return .failure(Task.isCancelled ? .cancelled : .timedOut(minutes: Int(settings.waitLimit / 60)))
        }
        let code: String
        switch result {
        case .failure(let failure): return .failure(failure)
        case .success(let value): code = value
        }
        let grant: TokenGrant
        switch await TokenEndpoint(http: http).redeem(
            code: code, verifier: pkce.verifier, redirectURI: listener.redirectURI, client: client,
            resource: found.resourceURI, endpoint: metadata.tokenEndpoint)
        {
        case .failure(let failure): return .failure(failure)
        case .success(let value): grant = value
        }
        let record = TokenRecord(
            server: server.url, issuer: issuer, client: client, tokenEndpoint: metadata.tokenEndpoint,
            resource: found.resourceURI, scopes: scopes, grant: grant, savedAt: WallClock.now())
        do { try settings.store?.save(record) } catch { return .failure(error) }
        return .success(record)
    }

    /// Opens `url` in the browser off the concurrency pool, then tells the person; at once when
    /// there is no browser to try.
    private func open(_ url: String) async {
        let browser = settings.browser
        let opened =
            browser.isAvailable
            ? await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                if !DetachedThread.start({ continuation.resume(returning: browser.open(url)) }) {
                    continuation.resume(returning: false)
                }
            } : false
        if Task.isCancelled { return }
        await settings.prompt.waiting(server: server.name, url: url, opened: opened)
    }

    /// The server's challenge to a request without a token (a `ping`), for its
    /// `resource_metadata`; nil when it gives none.
    private func askForChallenge() async -> BearerChallenge? {
        let ping = Array(#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#.utf8)
        guard
            case .success(let answer) = await http.post(
                server.url, body: ping, contentType: "application/json",
                headers: [("Accept", "application/json, text/event-stream")])
        else { return nil }
        return BearerChallenge(field: answer.head.header("www-authenticate"))
    }
}

/// The listener's check of the callback, handed from its thread to the flow.
private final class CheckedCode: Sendable {
    private let stored = Mutex<Result<String, SignInFailure>?>(nil)

    var value: Result<String, SignInFailure>? { stored.withLock { $0 } }

    func set(_ result: Result<String, SignInFailure>) { stored.withLock { $0 = result } }
}
