import ChatDomain

/// How one request for an answer ended, for the caller to choose an exit status.
public enum TurnOutcome: Sendable, Equatable {
    /// The answer arrived whole.
    case answered
    /// The request failed; the error was shown.
    case failed(ChatError)
    /// The answer arrived whole but does not match its schema (`--schema`); the line was shown.
    case mismatched(SchemaMismatch)
    /// The answer was stopped (Ctrl-C, a signal); what arrived was kept.
    case interrupted
    /// Standard output was closed by its reader (`chat … | head -1`); stopped quietly.
    case outputClosed
}
