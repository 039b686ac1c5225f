/// How a message came to be.
public enum MessageState: String, Sendable, Equatable {
    /// Whole: typed by the person, or an answer that ended normally.
    case complete
    /// An answer cut short (Ctrl-C, a dropped connection, an error mid-stream); its text is partial.
    case interrupted
    /// A user message whose request failed before any answer text arrived.
    case failed
}
