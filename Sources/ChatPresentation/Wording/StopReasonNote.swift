import ChatDomain

/// The note a person reads when an answer ended for a reason that matters (`ChatEvent.finished`):
/// cut at the token limit (OpenAI's `length`, Anthropic's `max_tokens`), declined (`refusal`),
/// or paused by the server (`pause_turn`) more times than chat sends it back; or ended as it
/// should with no text at all (a server that answered nothing, which would otherwise pass
/// without a word). One line on the notes
/// stream after the answer, every time (a script sees it too); the exit status stays that of an
/// answer.
struct StopReasonNote {
    /// The reason the last `.finished` event gave.
    private(set) var reason: String?
    /// Whether text came after the last tool calls (the answer's own).
    private var sawText = false

    /// Notes the reason `event` gives, if it is `.finished`, and whether the answer has text.
    mutating func take(_ event: ChatEvent) {
        switch event {
        case .finished(let reason): self.reason = reason
        case .text(let piece) where !piece.isEmpty: sawText = true
        case .toolCalls: sawText = false
        default: break
        }
    }

    /// The note's line, if the reason is one worth a note.
    var line: String? {
        guard let reason else { return nil }
        if let line = Self.line(for: reason) { return line }
        return sawText ? nil : "the server's answer has no text (stop reason: \(ServerText.line(reason, limit: 40)))"
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
            // chat sends a paused turn back to go on (`PausedTurn`): one still paused is past that.
            return "the server paused this answer before it was done, and again each of the "
                + "\(PausedTurn.continuations) times chat sent it back to go on (stop reason: pause_turn); "
                + "send a message to go on"
        default:
            return nil
        }
    }
}
