/// One argument of a server's prompt (its value is text).
public struct ToolServerPromptArgument: Sendable, Equatable {
    public var name: String
    public var description: String?
    public var isRequired: Bool

    public init(name: String, description: String? = nil, isRequired: Bool = false) {
        self.name = name
        self.description = description
        self.isRequired = isRequired
    }
}
