import ChatOAuth
import ChatPresentation
import ChatSystem

/// The process's environment and its standard output and error, with the style for errors.
struct Console: Sendable {
    let environment: [String: String]
    let stdout = FileDescriptorSink(fd: 1)
    let stderr = FileDescriptorSink(fd: 2)
    let errorStyle: TerminalStyle

    init(environment: [String: String]) {
        self.environment = environment
        errorStyle = TerminalStyle(isTerminal: stderr.isTerminal, environment: environment)
    }

    /// Says `message` as one error line on stderr; returns `status`, the exit status.
    func fail(_ message: String, status: Int32) -> Int32 {
        stderr.write(errorStyle.error("chat: error: \(message)") + "\n")
        return status
    }
}

extension Console {
    /// Problems with MCP servers, a line each on stderr as they happen.
    var toolProblemLine: ToolProblemLine {
        ToolProblemLine(
            stderr: stderr, style: errorStyle,
            takesEscapes: TerminalStyle.takesEscapes(isTerminal: stderr.isTerminal, environment: environment))
    }
}

extension Console {
    /// Sign-ins during a run: asked on `terminal` (nil: none), the browser's way said on stderr.
    func signInPrompt(terminal: (any ToolConsentTerminal)?) -> TerminalSignInPrompt {
        TerminalSignInPrompt(
            terminal: terminal, notes: stderr, notesStyle: errorStyle,
            questionStyle: TerminalStyle(isTerminal: true, environment: environment))
    }
}

extension Console {
    /// How a run signs in to an MCP server that asks: on `terminal` (nil: not at all, one line
    /// says how), the tokens kept in the data directory (none: for the run only), the browser
    /// `BROWSER` or the display's.
    func signIn(terminal: (any ToolConsentTerminal)?) -> SignInSettings {
        SignInSettings(
            store: DataDirectory(environment: environment).map(TokenStore.init(directory:)),
            prompt: signInPrompt(terminal: terminal), browser: BrowserOpener(environment: environment))
    }
}
