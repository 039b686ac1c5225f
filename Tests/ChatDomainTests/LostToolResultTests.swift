import ChatDomain
import Testing

private func calls(_ ids: String...) -> ChatMessage {
    ChatMessage(
        role: .assistant, parts: ids.map { .toolCall(ToolCall(id: $0, name: "time__now", arguments: .object([:]))) })
}

private func results(_ ids: String...) -> ChatMessage {
    ChatMessage(role: .tool, parts: ids.map { .toolResult(ToolResult(callID: $0, content: [.text("12:00")])) })
}

private let lost = Conversation.lostResultText

/// The results each tool message of `messages` carries, as "id: text".
private func carried(_ messages: [ChatMessage]) -> [[String]] {
    messages.filter { $0.role == .tool }.map { $0.toolResults.map { "\($0.callID): \($0.text)" } }
}

/// A call with no stored result (chat stopped between the call and its result) is answered as
/// lost when the conversation is sent again: providers require a result for every call.
@Suite("A tool call whose result was lost")
struct LostToolResultTests {
    @Test func aCallFollowedByAQuestionGetsALostResultBeforeIt() {
        let conversation = Conversation(
            settings: ChatSettings(model: "m"),
            messages: [
                ChatMessage(role: .user, content: "Time?"), calls("a", "b"), ChatMessage(role: .user, content: "Well?"),
            ])
        let sent = conversation.requestMessages
        #expect(sent.map(\.role) == [.user, .assistant, .tool, .user])
        #expect(carried(sent) == [["a: \(lost)", "b: \(lost)"]])
        #expect(sent[2].toolResults.allSatisfy { $0.isError })
    }

    @Test func aRoundMissingOneResultHasItAddedToItsResults() {
        let conversation = Conversation(
            settings: ChatSettings(model: "m"),
            messages: [ChatMessage(role: .user, content: "Time?"), calls("a", "b"), results("a")])
        #expect(carried(conversation.requestMessages) == [["a: 12:00", "b: \(lost)"]])
    }

    @Test func aWholeRoundIsSentAsItIs() {
        let messages = [
            ChatMessage(role: .user, content: "Time?"), calls("a"), results("a"),
            ChatMessage(role: .assistant, content: "Noon."),
        ]
        let conversation = Conversation(settings: ChatSettings(model: "m"), messages: messages)
        #expect(conversation.requestMessages == messages)
        #expect(conversation.turnCount == 1)
    }

    @Test func anInterruptedAnswerWithCallsEndsTheRequestWithLostResults() {
        var answer = calls("a")
        answer.state = .interrupted
        let conversation = Conversation(
            settings: ChatSettings(model: "m"), messages: [ChatMessage(role: .user, content: "Time?"), answer])
        #expect(conversation.requestMessages.map(\.role) == [.user, .assistant, .tool])
        #expect(carried(conversation.requestMessages) == [["a: \(lost)"]])
    }
}
