import ChatDomain
import ChatSystem

/// The tokens of one MCP server during a run (`BearerTokenProvider`): read from the token file
/// when first needed, refreshed a minute before they expire or once after a 401 (a rotated
/// refresh token kept at once), and after a refusal that a refresh cannot settle, a new sign-in —
/// after a yes on the terminal (`SignInPrompt`); with no terminal, or a no, the refusal stands and
/// the server's tools are left out. One at a time: several requests refused together settle once.
package actor OAuthBearer: BearerTokenProvider {
    private let flow: SignInFlow
    private let tokens: TokenEndpoint
    private var record: TokenRecord?
    private var loaded = false
    /// Why the token file could not be read, said when the server refuses.
    private var storeFailure: SignInFailure?
    /// Why the last refresh was refused.
    private var refreshFailure: SignInFailure?
    /// A sign-in was declined or failed this run: not asked again.
    private var gaveUp: SignInFailure?

    /// Seconds before expiry when a token is refreshed.
    static let margin = 60.0

    package init(server: OAuthServer, settings: SignInSettings, network: OAuthNetwork) {
        flow = SignInFlow(server: server, settings: settings, network: network)
        tokens = TokenEndpoint(http: OAuthHTTP(network: network))
    }

    private func load() {
        guard !loaded else { return }
        loaded = true
        do {
            record = try flow.settings.store?.record(for: flow.server.url)
        } catch {
            storeFailure = error
        }
    }

    package func token() async -> String? {
        load()
        if let record, record.refreshToken != nil, record.expires(within: Self.margin, of: WallClock.now()) {
            _ = await refresh()
        }
        return record?.accessToken
    }

    package func settle(status: Int, challenge: String?, sent: String?) async -> SignInFailure? {
        load()
        if let storeFailure { return storeFailure }
        // Another request settled it meanwhile: try again with the new token.
        if let current = record?.accessToken, current != sent { return nil }
        let parsed = BearerChallenge(field: challenge)
        let stepUp = status == 403
        if stepUp && parsed?.error != "insufficient_scope" { return .tokenNotAccepted(status: status) }
        if !stepUp, record?.refreshToken != nil, await refresh() { return nil }
        if let gaveUp { return gaveUp }
        switch await flow.settings.prompt.allowsSignIn(server: flow.server.name, again: refreshFailure != nil) {
        case nil:
            gaveUp = refreshFailure ?? .noTerminal
            return gaveUp
        case false?:
            gaveUp = .declined
            return gaveUp
        case true?:
            switch await flow.run(challenge: parsed, previous: record, stepUp: stepUp) {
            case .success(let signedIn):
                record = signedIn
                refreshFailure = nil
                return nil
            case .failure(let failure):
                gaveUp = failure
                return failure
            }
        }
    }

    /// Refreshes the tokens; whether there are new ones. A refusal is kept to be said.
    private func refresh() async -> Bool {
        guard let current = record else { return false }
        switch await tokens.refresh(current) {
        case .success(let grant):
            let updated = current.updated(with: grant, at: WallClock.now())
            record = updated
            do {
                try flow.settings.store?.save(updated)
            } catch {
                storeFailure = error
            }
            return true
        case .failure(let failure):
            refreshFailure = failure
            // The refused tokens are of no more use.
            record?.refreshToken = nil
            return false
        }
    }
}
