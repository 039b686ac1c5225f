/// Who wrote a message.
public enum Role: String, Sendable, Equatable {
    case system
    case user
    case assistant
    /// The results of an answer's tool calls (`MessagePart.toolResult`), sent back to the model.
    case tool
}
