/// The tool loop: an answer that ends with tool calls has each call put to the consent and run,
/// its results sent back, and the answer to them read, until an answer calls no tool.
extension GPTChatUseCase {
    /// Asks for the answer to `conversation`, offering `loop`'s tools, and runs the calls the
    /// answers make: after each answer with calls, the assistant message with its calls and one
    /// `Role.tool` message with a result for every call (a declined, unknown, failed or
    /// cancelled call an error result) join the conversation, and the next answer is asked for,
    /// offered the tools as the source has them then (a server's list may have changed).
    /// After `loop.roundLimit` rounds the consent is asked whether to go on; if not, the calls
    /// still waiting get error results and the turn fails with `ChatError.toolRoundLimit`. Each
    /// round is stored as it completes: every answer as it streams (its calls when it ends), its
    /// results once they are all there; so a crash mid-loop keeps what happened.
    func answerWithTools(
        _ conversation: inout Conversation, loop: ToolLoop, onEvent: (ChatEvent) -> Void,
        whileSending: (inout Conversation) async -> Void
    ) async -> Turn {
        var offered = await loop.source.tools()
        var turn = await answerOnce(&conversation, offered: offered, onEvent: onEvent, whileSending: whileSending)
        var rounds = 0
        var allowed = loop.roundLimit
        while let answer = turn.answer, !answer.toolCalls.isEmpty {
            if rounds == allowed {
                if await loop.consent.continueAfter(rounds: rounds) {
                    allowed += loop.roundLimit
                } else {
                    await appendAndStore(
                        Self.results(answer.toolCalls, text: Self.roundLimitText, isError: true), to: &conversation)
                    return Turn(
                        answer: nil, error: .toolRoundLimit(rounds: rounds), omittedMessages: turn.omittedMessages)
                }
            }
            rounds += 1
            var parts: [MessagePart] = []
            for call in answer.toolCalls {
                if Task.isCancelled {
                    parts.append(
                        .toolResult(ToolResult(callID: call.id, content: [.text(Self.cancelledText)], isError: true)))
                } else {
                    parts.append(.toolResult(await run(call, loop: loop, offered: offered)))
                }
            }
            await appendAndStore(ChatMessage(role: .tool, parts: parts), to: &conversation)
            if Task.isCancelled {
                return Turn(answer: nil, error: .cancelled, omittedMessages: turn.omittedMessages)
            }
            // A server's tools may have changed during the round: the next answer is offered
            // them as they are now.
            offered = await loop.source.tools()
            turn = await answerOnce(&conversation, offered: offered, onEvent: onEvent)
        }
        return turn
    }

    /// Puts `call` to the consent and runs it if allowed; a call of a tool not offered, or with
    /// arguments that are not a JSON object, is not run (nor put to the consent).
    private func run(_ call: ToolCall, loop: ToolLoop, offered: [ToolDefinition]) async -> ToolResult {
        func failed(_ text: String) -> ToolResult {
            ToolResult(callID: call.id, content: [.text(text)], isError: true)
        }
        guard let tool = offered.first(where: { $0.name == call.name }) else {
            return failed(
                "there is no tool named \"\(call.name)\"; the tools are: "
                    + offered.map(\.name).joined(separator: ", "))
        }
        guard case .object = call.arguments else {
            return failed("the arguments are not a JSON object; the tool was not run")
        }
        var call = call
        switch await loop.consent.decide(call, tool: tool) {
        case .decline:
            // Stopped while being asked (Ctrl-C): cancelled, not declined.
            return failed(Task.isCancelled ? Self.cancelledText : Self.declinedText)
        case .runEdited(let arguments):
            call.arguments = arguments
        case .run:
            break
        }
        var result = await loop.source.call(call, tool: tool).cut(toBytes: loop.maxResultBytes)
        result.callID = call.id
        // Ctrl-C while it ran: the call was cancelled (the server told so), and the model is told
        // the person cancelled it, whatever the source made of it.
        return Task.isCancelled ? failed(Self.cancelledText) : result
    }

    /// Appends a round's results to `conversation` and stores them after the answer that made
    /// the calls (stored already, when it ended).
    private func appendAndStore(_ results: ChatMessage, to conversation: inout Conversation) async {
        conversation.append(results)
        guard let recorder, let id = conversation.id, let last = conversation.messages.indices.last else { return }
        let storageID = await recorder.append(
            results, settings: conversation.settings, systemPrompt: conversation.systemPrompt, to: id)
        conversation.setStorageID(storageID, at: last)
    }

    /// A tool message answering each of `calls` with `text`.
    private static func results(_ calls: [ToolCall], text: String, isError: Bool) -> ChatMessage {
        ChatMessage(
            role: .tool,
            parts: calls.map { .toolResult(ToolResult(callID: $0.id, content: [.text(text)], isError: isError)) })
    }

    static let declinedText = "the user declined to run this tool call"
    static let cancelledText = "the user cancelled this tool call before it finished"
    static let roundLimitText = "not run: the limit on rounds of tool calls was reached"
}
