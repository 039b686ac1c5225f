/// One message of a conversation.
public struct ChatMessage: Sendable, Equatable {
    /// Who wrote it.
    public var role: Role
    /// What it is made of, in order: its text and a person's images, and, with tools, the calls
    /// an answer makes and their results. No text part is empty.
    public private(set) var parts: [MessagePart]
    /// Whether it is whole, cut short, or a request that failed.
    public var state: MessageState
    /// Reasoning text the server sent beside the answer, if any; never sent back.
    public var reasoning: String?
    /// Token usage the server reported for the turn this answer ends.
    public var usage: TokenUsage?
    /// Its row in the history, once stored.
    public var storageID: Int64?
    /// The profile and model that gave this answer in place of the conversation's own
    /// (`fallback`); nil when the conversation's own gave it.
    public var answeredBy: AnsweredBy? = nil
    /// Whether the answer's stream broke and the answer was resumed where it stopped: its text
    /// is whole, in two (or more) requests.
    public var resumed = false

    /// Creates a message of `content` (no text part when it is empty) and then `images`.
    public init(
        role: Role,
        content: String,
        state: MessageState = .complete,
        reasoning: String? = nil,
        usage: TokenUsage? = nil,
        storageID: Int64? = nil,
        images: [ImageAttachment] = []
    ) {
        self.init(
            role: role, parts: (content.isEmpty ? [] : [.text(content)]) + images.map(MessagePart.image), state: state,
            reasoning: reasoning, usage: usage, storageID: storageID)
    }

    /// Creates a message of `parts` (empty text parts are left out).
    public init(
        role: Role,
        parts: [MessagePart],
        state: MessageState = .complete,
        reasoning: String? = nil,
        usage: TokenUsage? = nil,
        storageID: Int64? = nil
    ) {
        self.role = role
        self.parts = parts.filter { $0 != .text("") }
        self.state = state
        self.reasoning = reasoning
        self.usage = usage
        self.storageID = storageID
    }

    /// Its text: the text parts, joined; for an interrupted answer, the part that arrived. Set, it
    /// replaces the text parts with one, where the first one was.
    public var content: String {
        get {
            // Nearly every message has one text part: no copy then.
            var text = ""
            var joined = false
            for case .text(let piece) in parts {
                if joined { text += piece } else { text = piece }
                joined = true
            }
            return text
        }
        set {
            let first = parts.firstIndex { if case .text = $0 { true } else { false } } ?? 0
            parts.removeAll { if case .text = $0 { true } else { false } }
            if !newValue.isEmpty { parts.insert(.text(newValue), at: min(first, parts.count)) }
        }
    }

    /// The images sent with it (a person's message), in order. Set, they replace the image parts,
    /// after the other parts.
    public var images: [ImageAttachment] {
        get { parts.compactMap { if case .image(let image) = $0 { image } else { nil } } }
        set {
            parts.removeAll { if case .image = $0 { true } else { false } }
            parts += newValue.map(MessagePart.image)
        }
    }

    /// The tools the answer asks to run, in order.
    public var toolCalls: [ToolCall] {
        parts.compactMap { if case .toolCall(let call) = $0 { call } else { nil } }
    }

    /// Whether the answer asks to run tools (without making a list of them).
    public var hasToolCalls: Bool {
        parts.contains { if case .toolCall = $0 { true } else { false } }
    }

    /// Whether an answer says anything a stored row keeps: text, or a tool call. Thinking blocks
    /// alone do not count: they are kept only with the calls they led to.
    public var hasAnswerContent: Bool {
        parts.contains {
            switch $0 {
            case .text, .toolCall: true
            default: false
            }
        }
    }

    /// The results it carries for earlier tool calls, in order.
    public var toolResults: [ToolResult] {
        parts.compactMap { if case .toolResult(let result) = $0 { result } else { nil } }
    }

    /// The sources the answer cites from the server's web search, in the order cited (a source
    /// cited twice is here twice).
    public var citations: [WebCitation] {
        parts.compactMap { if case .citation(let citation) = $0 { citation } else { nil } }
    }

    /// The thinking blocks the provider signed, in order.
    public var thinkingBlocks: [ThinkingBlock] {
        parts.compactMap { if case .thinking(let block) = $0 { block } else { nil } }
    }

    /// Appends `part` (an empty text part is left out).
    public mutating func append(_ part: MessagePart) {
        if case .text(let text) = part {
            append(text: text)
        } else {
            parts.append(part)
        }
    }

    /// Adds what a streamed `event` carries: answer text to the content, reasoning to the
    /// reasoning, token usage, the tool calls the answer ends with, the thinking blocks kept to
    /// send back, its web searches and the sources it cites, the fallback profile that gives it
    /// (`answeredBy`) and its resumption (`resumed`). Appends in place, so a long answer is
    /// never copied whole.
    public mutating func add(_ event: ChatEvent) {
        switch event {
        case .text(let piece):
            append(text: piece)
        case .reasoning(let piece):
            guard !piece.isEmpty else { return }
            if reasoning == nil { reasoning = piece } else { reasoning?.append(piece) }
        case .usage(let usage):
            self.usage = usage
        case .toolCalls(let calls):
            parts += calls.map(MessagePart.toolCall)
        case .thinking(let block):
            parts.append(.thinking(block))
        case .searched(let block):
            parts.append(.webSearch(block))
        case .cited(let citation):
            parts.append(.citation(citation))
        case .resumed:
            resumed = true
        case .fellBack(_, let profile, let model, _):
            answeredBy = AnsweredBy(profile: profile, model: model)
        case .finished, .retrying, .sentAsText, .notice, .searching:
            break
        }
    }

    /// Appends `piece` to the last part if it is text (in place: the part's string is uniquely
    /// held while it grows), else as a new text part.
    private mutating func append(text piece: String) {
        guard !piece.isEmpty else { return }
        guard let last = parts.indices.last, case .text(var text) = parts[last] else {
            parts.append(.text(piece))
            return
        }
        parts[last] = .text("")
        text += piece
        parts[last] = .text(text)
    }
}
