import ChatConfig
import ChatDomain
import ChatHTTP
import ChatMCP
import ChatOAuth
import ChatPresentation
import ChatSystem

/// `chat --tools-login SERVER`: signs in to an HTTP MCP server in the browser (`BROWSER`, else
/// `xdg-open` where there is a display, else the URL on stderr) and keeps its tokens; no terminal
/// is needed. `--tools-logout SERVER` forgets them. Exit 0 when done, 1 when the sign-in was
/// refused or failed, 2 for a server that is not configured or not signed in to (stdio).
struct ToolsLoginMode {
    var options: CommandLineOptions
    var console: Console

    func login(_ name: String) async -> Int32 {
        let server: OAuthServer
        let network: MCPNetworkSettings
        switch target(name) {
        case .failure(let exit): return exit.status
        case .success(let found): (server, network) = found
        }
        guard let directory = DataDirectory(environment: console.environment) else {
            return console.fail("could not sign in to \(name): \(ErrorWording.line(for: .noDataDirectory))", status: 1)
        }
        let settings = SignInSettings(
            store: TokenStore(directory: directory), prompt: console.signInPrompt(terminal: nil),
            browser: BrowserOpener(environment: console.environment))
        let http = CurlHTTPClient()
        defer { http.shutdown() }
        let flow = SignInFlow(server: server, settings: settings, network: network.oauth(http))
        let (result, signal) = await SignalWatcher.cancellingOnSignal { await flow.run(challenge: nil) }
        if let signal {
            _ = console.fail("the sign-in to \(name) was stopped", status: 1)
            return SignalWatcher.exitStatus(for: signal)
        }
        switch result {
        case .success:
            console.stdout.write("signed in to \(ServerText.line(name, limit: 60))\n")
            return 0
        case .failure(let failure):
            return console.fail("could not sign in to \(name): \(ErrorWording.line(for: failure))", status: 1)
        }
    }

    func logout(_ name: String) -> Int32 {
        let server: OAuthServer
        switch target(name) {
        case .failure(let exit): return exit.status
        case .success(let found): server = found.0
        }
        let shown = ServerText.line(name, limit: 60)
        guard let directory = DataDirectory(environment: console.environment) else {
            console.stdout.write("no sign-in was kept for \(shown)\n")
            return 0
        }
        do {
            let forgotten = try TokenStore(directory: directory).forget(server: server.url)
            console.stdout.write(
                forgotten == 0
                    ? "no sign-in was kept for \(shown)\n" : "signed out of \(shown): its tokens are removed\n")
            return 0
        } catch {
            return console.fail("could not sign out of \(name): \(ErrorWording.line(for: error))", status: 1)
        }
    }

    /// A run that ends early, its line said.
    private struct Exit: Error {
        var status: Int32
    }

    /// The HTTP server `name` and how to reach it; else the exit status, its line said.
    private func target(_ name: String) -> Result<(OAuthServer, MCPNetworkSettings), Exit> {
        let settings: ToolSettings
        let network: MCPNetworkSettings
        do {
            (settings, _, network) = try SettingsResolver(environment: console.environment).toolsList(options.overrides)
        } catch {
            return .failure(Exit(status: console.fail(ErrorWording.line(for: error), status: 2)))
        }
        let shown = ServerText.line(name, limit: 60)
        switch settings.signInTarget(name) {
        case .http(let server):
            return .success((server, network))
        case .stdio:
            return .failure(
                Exit(
                    status: console.fail(
                        "\(shown) is a stdio server: chat signs in only to HTTP servers (a stdio server takes its "
                            + "credentials from its env)", status: 2)))
        case .unknown:
            let known = settings.configured.isEmpty ? "none are" : settings.configured.joined(separator: ", ") + " are"
            return .failure(
                Exit(status: console.fail("no MCP server \"\(shown)\" in the config (\(known) configured)", status: 2)))
        case .unusable(let problem):
            return .failure(Exit(status: console.fail(ErrorWording.line(for: problem), status: 2)))
        }
    }
}
