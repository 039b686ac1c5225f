/// Who wrote a message.
public enum Role: String, Sendable, Equatable, Codable {
    case system
    case user
    case assistant
}
