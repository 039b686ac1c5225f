/// A summary that stands for a conversation's first messages in the requests that follow
/// (`/compact`, or chat's own near the context window): those messages stay in the
/// conversation and the history, and requests carry the summary in their place.
public struct Compaction: Sendable, Equatable {
    /// What the model wrote of the messages it covers.
    public var summary: String
    /// How many of the conversation's first messages it stands for.
    public var coveredMessages: Int

    /// Creates a compaction of the first `coveredMessages` messages.
    public init(summary: String, coveredMessages: Int) {
        self.summary = summary
        self.coveredMessages = coveredMessages
    }

    /// The two messages a request carries in place of the covered ones: the summary, said to be
    /// one, and the model's word that it goes on from there (so the turns still alternate).
    public var requestMessages: [ChatMessage] {
        [
            ChatMessage(role: .user, content: Self.summaryLead + summary),
            ChatMessage(role: .assistant, content: Self.acknowledgement),
        ]
    }

    /// What the summary message begins with.
    public static let summaryLead =
        "[Summary of the earlier part of this conversation, written to fit the context window; "
        + "the turns it covers are not repeated here.]\n\n"

    /// The answer to the summary message.
    public static let acknowledgement = "Understood. I will continue the conversation from this summary."
}
