import ChatDomain

/// How `chat -x` ended, for the caller to choose the exit status.
public enum ShellOutcome: Sendable, Equatable {
    /// The command was printed, not run (not a terminal).
    case printed(command: String)
    /// The command ran and ended with `status`.
    case ran(command: String, status: Int32)
    /// The person said no (`n`, Enter).
    case declined
    /// The person stopped it (Ctrl-C), or a signal stopped the request.
    case interrupted
    /// The request failed (the error was shown), or the answer held no command.
    case failed(ChatError?)
}
