/// Where a conversation branched off another (`/fork`): the conversation it came from, the
/// message it branched after there, and that message's turn (the person's question number).
public struct BranchPoint: Sendable, Equatable {
    /// The short id of the conversation it branched from.
    public var conversationID: String
    /// The stored message it branched after, if it was stored.
    public var messageID: Int64?
    /// How many of the person's questions it took along.
    public var turn: Int

    /// A branch point after `turn` questions of `conversationID`, at message `messageID`.
    public init(conversationID: String, messageID: Int64?, turn: Int) {
        self.conversationID = conversationID
        self.messageID = messageID
        self.turn = turn
    }
}
