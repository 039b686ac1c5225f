import ChatDomain
import ChatJSON
import ChatRendering

/// `ToolConsent` for a person: a call of a tool that is not approved ahead (`auto_approve`,
/// `--yes-tools`, or `a` earlier in the run) is shown on the terminal — the server, the tool and
/// its arguments in full, made safe — and asked about with one key: `y` runs it, `n` declines
/// it, `a` runs it and every later call of the tool this run, `e` edits the arguments first.
/// Ctrl-C stops the turn (the call declined, the task cancelled). With no terminal, such a call is
/// declined, and stderr says once for each tool how to allow it.
public actor TerminalToolConsent: ToolConsent {
    private let terminal: (any ToolConsentTerminal)?
    private let notes: any OutputSink
    private let notesStyle: TerminalStyle
    private let questionStyle: TerminalStyle
    /// Tools the person said `a` to.
    private var always: Set<String> = []
    /// Tools declined for want of a terminal, said once each.
    private var said: Set<String> = []

    public init(
        terminal: (any ToolConsentTerminal)?, notes: any OutputSink, notesStyle: TerminalStyle,
        questionStyle: TerminalStyle
    ) {
        self.terminal = terminal
        self.notes = notes
        self.notesStyle = notesStyle
        self.questionStyle = questionStyle
    }

    /// The arguments as the person reads and edits them: indented JSON (`{}` when empty).
    private static func format(_ arguments: JSONValue) -> String? {
        arguments.object?.isEmpty == true ? "{}" : arguments.prettyJSONText
    }

    public func decide(_ call: ToolCall, tool definition: ToolDefinition) async -> ToolConsentDecision {
        if definition.isPreApproved || always.contains(call.name) { return .run }
        guard let terminal else { return declineUnasked(call, definition) }
        var arguments = call.arguments
        var draft: String?
        while true {
            let (server, tool) = (definition.origin?.server ?? "?", definition.origin?.tool ?? call.name)
            let question =
                "\n" + questionStyle.bold("Tool call: " + ServerText.line(tool, limit: 60))
                + " on MCP server " + ServerText.line(server, limit: 40) + "\n"
                + Self.safe(Self.format(arguments) ?? "{}")
                + "\nRun it? [y]es / [n]o / [a]lways this tool for this run / [e]dit the arguments "
            switch await terminal.key(question, among: "ynae") {
            case "y":
                return arguments == call.arguments ? .run : .runEdited(arguments)
            case "a":
                always.insert(call.name)
                return arguments == call.arguments ? .run : .runEdited(arguments)
            case "e":
                guard let edited = await terminal.edit(draft ?? Self.format(arguments) ?? "{}") else { continue }
                if let value = JSONValue(jsonText: edited), case .object = value {
                    arguments = value
                    draft = nil
                } else {
                    draft = edited
                    await terminal.say(
                        questionStyle.warning("those arguments are not a JSON object; edit them again, or answer")
                            + "\n")
                }
            case "n":
                return .decline
            default:
                // Ctrl-C: the turn stops, as Ctrl-C stops an answer.
                withUnsafeCurrentTask { $0?.cancel() }
                return .decline
            }
        }
    }

    public func continueAfter(rounds: Int) async -> Bool {
        guard let terminal else { return false }
        let question =
            "\n"
            + questionStyle.bold("The model asks for tools again after \(Counted.text(rounds, "round")) of tool calls.")
            + "\n[y]es, another \(Counted.text(rounds, "round")) / [n]o, stop here "
        return await terminal.key(question, among: "yn") == "y"
    }

    /// A call not approved ahead, with no terminal to ask on: declined, said once for the tool.
    private func declineUnasked(_ call: ToolCall, _ tool: ToolDefinition) -> ToolConsentDecision {
        if said.insert(call.name).inserted {
            let allow = tool.origin.map { "\($0.server).\($0.tool)" } ?? call.name
            notes.write(
                notesStyle.warning(
                    "chat: warning: declined \(ToolCallReporter.shown(tool)): no terminal to ask on; allow it with "
                        + "auto_approve in its mcp_servers entry, or --yes-tools \(ServerText.line(allow, limit: 80))")
                    + "\n")
        }
        return .decline
    }

    /// Text a tool or the model chose, made safe to show on several lines.
    static func safe(_ text: String) -> String {
        ControlSanitizer.safe(text)
    }
}
