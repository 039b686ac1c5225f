import ChatDomain

/// The note a person reads when an answer ended for a reason that matters (`ChatEvent.finished`):
/// cut at the token limit (OpenAI's `length`, Anthropic's `max_tokens`), declined (`refusal`),
/// or paused by the server (`pause_turn`). One line on the notes stream after the answer, every
/// time (a script sees it too); the exit status stays that of an answer.
struct StopReasonNote {
    /// The reason the last `.finished` event gave.
    private(set) var reason: String?

    /// Notes the reason `event` gives, if it is `.finished`.
    mutating func take(_ event: ChatEvent) {
        if case .finished(let reason) = event { self.reason = reason }
    }

    /// The note's line, if the reason is one worth a note.
    var line: String? {
        reason.flatMap(Self.line(for:))
    }

    /// Writes the note to `sink`, if there is one.
    func write(to sink: any OutputSink, style: TerminalStyle) {
        guard let line else { return }
        sink.write(style.warning("chat: note: " + line) + "\n")
    }

    /// The words for `reason`; nil for an ordinary end (`stop`, `end_turn`, `tool_use`, …).
    static func line(for reason: String) -> String? {
        switch reason {
        case "length", "max_tokens":
            return "the answer was cut off at the token limit (raise it with --max-tokens, or max_tokens in the config)"
        case "refusal":
            return "the model declined to answer (stop reason: refusal)"
        case "pause_turn":
            return "the server paused this turn before it was done (stop reason: pause_turn); send a message to go on"
        default:
            return nil
        }
    }
}
