import ChatDomain

/// Says each problem with a tool server as it happens, as one line on stderr naming the server
/// and its log file or endpoint (`ErrorWording`); the chat goes on.
public struct ToolProblemLine: ToolProblemReporter {
    private let stderr: any OutputSink
    private let style: TerminalStyle
    /// Whether stderr takes escape sequences (a terminal, unless `TERM` is `dumb`).
    private let takesEscapes: Bool

    /// Lines on `stderr`, in `style`; `takesEscapes` as `TerminalStyle.takesEscapes` says.
    public init(stderr: any OutputSink, style: TerminalStyle, takesEscapes: Bool) {
        self.stderr = stderr
        self.style = style
        self.takesEscapes = takesEscapes
    }

    /// The line for `problem`. On a terminal it first clears the line it starts on: a problem
    /// found during a call (the server gone) comes while the call's live line
    /// (`ToolCallReporter`) is shown, which the call's last line then replaces below it.
    public func report(_ problem: ToolServerProblem) {
        let clear = takesEscapes ? "\r\u{1B}[K" : ""
        stderr.write(clear + style.warning("chat: warning: " + ErrorWording.line(for: problem)) + "\n")
    }
}
