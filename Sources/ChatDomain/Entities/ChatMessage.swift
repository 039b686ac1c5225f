/// One message of a conversation.
public struct ChatMessage: Sendable, Equatable {
    /// Who wrote it.
    public var role: Role
    /// Its text: for an interrupted answer, the part that arrived.
    public var content: String
    /// Whether it is whole, cut short, or a request that failed.
    public var state: MessageState
    /// Reasoning text the server sent beside the answer, if any; never sent back.
    public var reasoning: String?
    /// Token usage the server reported for the turn this answer ends.
    public var usage: TokenUsage?
    /// Its row in the history, once stored.
    public var storageID: Int64?
    /// Images sent with it (a person's message only), after its text.
    public var images: [ImageAttachment]

    /// Creates a message.
    public init(
        role: Role,
        content: String,
        state: MessageState = .complete,
        reasoning: String? = nil,
        usage: TokenUsage? = nil,
        storageID: Int64? = nil,
        images: [ImageAttachment] = []
    ) {
        self.role = role
        self.content = content
        self.state = state
        self.reasoning = reasoning
        self.usage = usage
        self.storageID = storageID
        self.images = images
    }

    /// Adds what a streamed `event` carries: answer text to the content, reasoning to the
    /// reasoning, token usage. Appends in place, so a long answer is never copied whole.
    public mutating func add(_ event: ChatEvent) {
        switch event {
        case .text(let piece):
            content += piece
        case .reasoning(let piece):
            guard !piece.isEmpty else { return }
            if reasoning == nil { reasoning = piece } else { reasoning?.append(piece) }
        case .usage(let usage):
            self.usage = usage
        case .finished, .retrying:
            break
        }
    }
}
