import ChatConfig
import ChatDomain
import ChatJSON
import ChatMCP
import ChatOAuth
import ChatPresentation
import ChatSystem

extension SessionBuilder {
    /// The tool loop of a run that uses tools (`tools`, `-T`), and the servers to close at its
    /// end; nil when it uses none: then nothing of MCP is made, let alone started. Each call is
    /// asked about on the terminal (`TerminalToolConsent`) and shown on stderr
    /// (`ToolCallReporter`; with `--json`, as events on stdout too); a server's questions are asked
    /// on the same terminal (`TerminalServerQuestions`; declined under `--json`). HTTP servers are
    /// reached with the chat server's CA file and proxy, and `-v` shows their requests; one that
    /// asks for a sign-in is offered one on the terminal. The eras the servers speak, and the
    /// sign-ins' tokens, are kept in the data directory whatever the history setting says.
    ///
    /// The REPL may use every configured server (`/tools SERVER` turns one on, `--no-tools`
    /// aside): it gets the loop even when no server is on at the start, and a server is started
    /// only once it is on.
    func toolLoop(_ settings: ResolvedSettings) -> (loop: ToolLoop, servers: MCPTools, repl: REPL.Tools)? {
        let interactive = ChatMode.isInteractive(options)
        let tools = settings.tools
        guard tools.isOn || (interactive && !tools.refused && !tools.configured.isEmpty) else { return nil }
        // The REPL's servers: the chosen ones first, then the rest of the configured ones.
        let chosen = tools.servers ?? []
        let toolSwitch = ToolSwitch(
            servers: interactive ? chosen + tools.configured.filter { !chosen.contains($0) } : chosen, on: chosen)
        let environment = console.environment
        let (stderr, style) = (console.stderr, console.errorStyle)
        let terminal = TTYToolConsentTerminal(environment: environment)
        let questionStyle = TerminalStyle(isTerminal: true, environment: environment)
        // A server's questions are asked on the terminal tool calls are; under --json, none is.
        let questions = TerminalServerQuestions(
            terminal: options.json ? nil : terminal, notes: stderr, notesStyle: style, questionStyle: questionStyle)
        var network = MCPNetworkSettings(server: settings.server, environment: environment)
        network.signIn = console.signIn(terminal: terminal)
        let servers = MCPTools(
            settings.tools, servers: toolSwitch.servers,
            dataDirectory: settings.history ? DataDirectory(environment: environment) : nil,
            eraDirectory: DataDirectory(environment: environment), clientVersion: ChatVersion.string,
            network: network, reporter: console.toolProblemLine, answerer: questions,
            inUse: { toolSwitch.isOn($0) })
        let consent = TerminalToolConsent(
            terminal: terminal, notes: stderr, notesStyle: style, questionStyle: questionStyle)
        let reporter = ToolCallReporter(
            servers, notes: stderr, style: style,
            live: TerminalStyle.takesEscapes(isTerminal: stderr.isTerminal, environment: environment),
            lines: options.json ? JSONLines(console.stdout) : nil, toolSwitch: toolSwitch)
        let loop = ToolLoop(
            source: reporter, consent: consent, roundLimit: settings.tools.roundLimit,
            maxResultBytes: settings.tools.maxResultBytes)
        let repl = REPL.Tools(switch: toolSwitch, servers: servers) { await ToolsListMode.entries(servers) }
        return (loop, servers, repl)
    }
}
