import ChatDomain

/// `SignInPrompt` for a person: a server that asks for a sign-in during a run is offered on the
/// terminal ("SERVER needs you to sign in — open the browser? [y/N]", one key, Enter as no); with
/// no terminal nothing is asked, and the caller says in one line how to sign in. Where the browser
/// goes, or the URL to open when there is none, is said on stderr. One question at a time: servers
/// that start side by side ask in turn.
public actor TerminalSignInPrompt: SignInPrompt {
    private let terminal: (any ToolConsentTerminal)?
    private let notes: any OutputSink
    private let notesStyle: TerminalStyle
    private let questionStyle: TerminalStyle
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Questions on `terminal` (nil: none to ask on), in `questionStyle`; where the browser went on
    /// `notes` (stderr), in `notesStyle`.
    public init(
        terminal: (any ToolConsentTerminal)?, notes: any OutputSink, notesStyle: TerminalStyle,
        questionStyle: TerminalStyle
    ) {
        self.terminal = terminal
        self.notes = notes
        self.notesStyle = notesStyle
        self.questionStyle = questionStyle
    }

    public func allowsSignIn(server: String, again: Bool) async -> Bool? {
        guard let terminal else { return nil }
        await takeTurn()
        defer { endTurn() }
        let name = ServerText.line(server, limit: 60)
        let question =
            "\n"
            + questionStyle.bold(
                again
                    ? "\(name)'s sign-in expired and could not be renewed — sign in again in the browser?"
                    : "\(name) needs you to sign in — open the browser?") + " [y/N] "
        let key = await terminal.key(question, among: "yn")
        if key == nil { withUnsafeCurrentTask { $0?.cancel() } }
        return key == "y"
    }

    public func waiting(server: String, url: String, opened: Bool) async {
        notes.write(notesStyle.warning(Self.waitingText(server: server, url: url, opened: opened)) + "\n")
    }

    /// What is said while chat waits for the browser to come back.
    public static func waitingText(server: String, url: String, opened: Bool) -> String {
        let name = ServerText.line(server, limit: 60)
        return opened
            ? "chat: signing in to \(name) in the browser; waiting for it (at most 5 minutes; Ctrl-C stops)"
            : "chat: open this URL in a browser to sign in to \(name) (waiting at most 5 minutes; Ctrl-C stops):\n"
                + ServerText.line(url, limit: 8192)
    }

    private func takeTurn() async {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
    }

    private func endTurn() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}
