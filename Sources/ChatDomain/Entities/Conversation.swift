/// An ordered exchange of messages with a system prompt and the settings it is sent with.
public struct Conversation: Sendable, Equatable {
    /// Instructions sent first in every request; nil or empty sends none.
    public var systemPrompt: String?
    /// What was said, in order, failed and interrupted turns included.
    public private(set) var messages: [ChatMessage] {
        // A summary of messages no longer there stands for nothing.
        didSet { if let compaction, compaction.coveredMessages > messages.count { self.compaction = nil } }
    }
    /// The summary that requests carry in place of the first messages, if the conversation was
    /// compacted (the messages stay).
    public var compaction: Compaction?
    /// Model and sampling settings.
    public var settings: ChatSettings
    /// Its short id in the history, once stored; nil for a new or unstored conversation.
    public var id: String?
    /// Its title in the history, if one was set.
    public var title: String?
    /// Where it branched off another conversation (`/fork`), if it did.
    public var branchedFrom: BranchPoint?

    /// Creates a conversation.
    public init(
        systemPrompt: String? = nil, settings: ChatSettings, messages: [ChatMessage] = [], id: String? = nil,
        title: String? = nil, branchedFrom: BranchPoint? = nil, compaction: Compaction? = nil
    ) {
        self.branchedFrom = branchedFrom
        self.compaction = compaction.flatMap { $0.coveredMessages <= messages.count ? $0 : nil }
        self.systemPrompt = systemPrompt
        self.settings = settings
        self.messages = messages
        self.id = id
        self.title = title
    }

    /// The messages a request carries: the system prompt, the compaction's summary in place of
    /// the messages it covers, then every turn except user messages whose request failed with
    /// no answer, and except empty answers. A tool call with no result (chat stopped between the
    /// call and its result) is answered by an error result saying the result was lost, as
    /// providers require a result for every call.
    public var requestMessages: [ChatMessage] {
        var result: [ChatMessage] = []
        if let systemPrompt, !systemPrompt.isEmpty {
            result.append(ChatMessage(role: .system, content: systemPrompt))
        }
        result += compaction?.requestMessages ?? []
        return result + Self.sendable(messages.dropFirst(compaction?.coveredMessages ?? 0))
    }

    /// `messages` as a request carries them (see `requestMessages`).
    static func sendable(_ messages: ArraySlice<ChatMessage>) -> [ChatMessage] {
        var result: [ChatMessage] = []
        // The calls of the last answer that called tools, not answered yet.
        var waiting: [String] = []
        for message in messages where message.state != .failed {
            if message.role == .assistant && !message.hasAnswerContent { continue }
            if message.role == .tool {
                var answered = message
                for result in message.toolResults { waiting.removeAll { $0 == result.callID } }
                for id in waiting { answered.append(.toolResult(Self.lostResult(of: id))) }
                waiting = []
                result.append(answered)
                continue
            }
            if !waiting.isEmpty {
                result.append(ChatMessage(role: .tool, parts: waiting.map { .toolResult(Self.lostResult(of: $0)) }))
                waiting = []
            }
            if message.role == .assistant && message.hasToolCalls { waiting = message.toolCalls.map(\.id) }
            result.append(message)
        }
        if !waiting.isEmpty {
            result.append(ChatMessage(role: .tool, parts: waiting.map { .toolResult(Self.lostResult(of: $0)) }))
        }
        return result
    }

    /// What a request carries for tool call `id` whose result was never stored.
    static func lostResult(of id: String) -> ToolResult {
        ToolResult(callID: id, content: [.text(lostResultText)], isError: true)
    }

    /// The text of a result that was lost.
    public static let lostResultText =
        "the result of this tool call was lost (chat stopped before it was stored); the tool may or may not have run"

    /// The messages a request carries within `settings.maxContextTokens` (see
    /// `requestMessages(within:)`).
    public var requestMessagesWithinContext: (messages: [ChatMessage], omitted: Int) {
        requestMessages(within: settings.maxContextTokens)
    }

    /// The messages a request carries within `limit` tokens (nil: no limit): the oldest turns
    /// after the system prompt are left out until the estimate fits (the newest message always
    /// stays). Also returns how many messages were left out.
    public func requestMessages(within limit: Int?) -> (messages: [ChatMessage], omitted: Int) {
        let all = requestMessages
        guard let limit else { return (all, 0) }
        let system = all.first?.role == .system ? 1 : 0
        var kept = all
        var omitted = 0
        let scale = tokensPerEstimatedToken
        while kept.count > system + 1 && Double(Self.estimate(kept)) * scale > Double(limit) {
            kept.remove(at: system)
            omitted += 1
        }
        // Never begin the turns with an answer whose question was left out.
        while kept.count > system + 1 && (kept[system].role == .assistant || kept[system].role == .tool) {
            kept.remove(at: system)
            omitted += 1
        }
        return (kept, omitted)
    }

    /// How the cheap estimate compares with the server's count: the prompt tokens the server
    /// reported for the last answer that has usage, over the estimate of what that request
    /// carried (clamped to 0.25…4). 1 when no usage is known.
    public var tokensPerEstimatedToken: Double {
        guard let index = messages.lastIndex(where: { $0.role == .assistant && $0.usage != nil }),
            let usage = messages[index].usage, usage.promptTokens > 0
        else { return 1 }
        // What that request carried: after a compaction, its summary and what followed.
        let covered = compaction.map { $0.coveredMessages <= index ? $0.coveredMessages : 0 } ?? 0
        var sent = Array(messages[covered..<index]).filter {
            $0.state != .failed && !($0.role == .assistant && $0.content.isEmpty)
        }
        if covered > 0, let compaction { sent.insert(contentsOf: compaction.requestMessages, at: 0) }
        if let systemPrompt, !systemPrompt.isEmpty {
            sent.insert(ChatMessage(role: .system, content: systemPrompt), at: 0)
        }
        let estimated = Self.estimate(sent)
        guard estimated > 0 else { return 1 }
        return min(max(Double(usage.promptTokens) / Double(estimated), 0.25), 4)
    }

    /// About four characters a token, plus a few for each message's framing; a round of tool
    /// calls counts its calls' names and arguments and its results' text.
    public static func estimate(_ messages: [ChatMessage]) -> Int {
        messages.reduce(0) { $0 + (bytes(of: $1) + 3) / 4 + 4 }
    }

    /// The bytes of text `message` sends: its text, and a tool round's calls and results.
    private static func bytes(of message: ChatMessage) -> Int {
        var count = message.content.utf8.count
        guard message.role == .tool || message.hasToolCalls else { return count }
        for part in message.parts {
            switch part {
            case .toolCall(let call):
                count += call.name.utf8.count + (call.arguments.string ?? "").utf8.count
                if case .object(let members) = call.arguments {
                    for (key, value) in members { count += key.utf8.count + (value.string?.utf8.count ?? 8) + 4 }
                }
            case .toolResult(let result):
                count += result.text.utf8.count
            case .thinking(.signed(let text, _)):
                count += text.utf8.count
            case .thinking(.encryptedReasoning(let summary, let content)):
                count += summary.reduce(content.utf8.count / 4) { $0 + $1.utf8.count }
            case .text, .image, .thinking(.redacted), .webSearch, .citation:
                break
            }
        }
        return count
    }

    /// Number of user messages that got an answer, whole or partial: the answers, not counting
    /// those that only led to tool calls (a round of tool calls is part of the answer it led to).
    public var turnCount: Int {
        messages.count { $0.role == .assistant && !$0.hasToolCalls }
    }

    /// The images whose bytes are gone (moved, changed or deleted since): requests carry a note
    /// in their place.
    public var unavailableImages: [ImageAttachment] {
        messages.flatMap(\.images).filter { $0.data == nil }
    }

    /// Usage reported for the most recent answer that has it.
    public var lastUsage: TokenUsage? {
        messages.last { $0.usage != nil }?.usage
    }

    /// Appends a message.
    public mutating func append(_ message: ChatMessage) {
        messages.append(message)
    }

    /// Replaces the last message, e.g. with its stored row id.
    public mutating func replaceLast(_ message: ChatMessage) {
        guard !messages.isEmpty else { return }
        messages[messages.count - 1] = message
    }

    /// Sets where message `index` is stored in the history.
    public mutating func setStorageID(_ id: Int64?, at index: Int) {
        guard messages.indices.contains(index) else { return }
        messages[index].storageID = id
    }

    /// Marks the last message's state, e.g. a user message whose request failed.
    public mutating func markLast(_ state: MessageState) {
        guard !messages.isEmpty else { return }
        messages[messages.count - 1].state = state
    }

    /// Removes and returns the last message, if any.
    @discardableResult
    public mutating func removeLast() -> ChatMessage? {
        messages.popLast()
    }

    /// Removes the last exchange: the last user message and everything after it. Returns the
    /// removed messages, or nil if there was none.
    @discardableResult
    public mutating func removeLastExchange() -> [ChatMessage]? {
        guard let index = messages.lastIndex(where: { $0.role == .user }) else { return nil }
        let removed = Array(messages[index...])
        messages.removeSubrange(index...)
        return removed
    }

    /// A rough token count for text with no usage figures yet: about four bytes of UTF-8 a token
    /// (four characters of English; CJK, three bytes a character, is near a token a character).
    /// Bytes, not characters: a string knows its byte count without reading the text.
    public var estimatedTokens: Int {
        let bytes = (systemPrompt?.utf8.count ?? 0) + messages.reduce(0) { $0 + $1.content.utf8.count }
        return (bytes + 3) / 4
    }

    /// Starts afresh: no messages, no stored id or title; the system prompt and settings stay.
    public mutating func clear() {
        messages.removeAll()
        compaction = nil
        id = nil
        title = nil
        branchedFrom = nil
    }

    /// The indices of the person's questions, in order: question N (from 1) is at index N − 1.
    public var questionIndices: [Int] {
        messages.indices.filter { messages[$0].role == .user }
    }

    /// Keeps the first `count` messages and drops the rest (from this conversation, not the
    /// history): where a branch goes another way.
    public mutating func keepFirst(_ count: Int) {
        guard count < messages.count else { return }
        messages.removeSubrange(max(count, 0)...)
    }
}
