/// One choice of a field: the value sent, and the title shown (the value when none).
public struct ServerQuestionChoice: Sendable, Equatable {
    public var value: String
    public var title: String?

    public init(value: String, title: String? = nil) {
        self.value = value
        self.title = title
    }
}
