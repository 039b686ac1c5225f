import ChatDomain
import ChatHTTP
import ChatJSON

/// Turns the events of a Responses stream into `ChatEvent`s, by each event's `type` (servers
/// that leave out the `event:` line are read alike): answer text (`response.output_text.delta`),
/// a refusal as answer text, reasoning summaries as reasoning (a blank line between two parts),
/// each reasoning item whole when it is done (to go back in a tool loop, when it carries its
/// encrypted reasoning), the function calls when their items are done (handed on together at the
/// end), and the end: `response.completed`, `response.incomplete` (`max_output_tokens` is the
/// "cut off" of `length`), `response.failed` and `error`. Other events are ignored.
///
/// The server's web search: each `web_search_call` item is `.searching` (its query, as soon as
/// an item says it) and, when done, `.searched` (to be sent back); each `url_citation`
/// annotation is `.cited` (as its event comes, else from the message item done: once either
/// way, since each is stored with the answer); the usage counts the searches.
struct ResponsesStreamDecoder: StreamEventDecoder {
    /// The stream said it is over (`[DONE]`, which some servers send after the last event).
    private(set) var isDone = false
    /// The response ended (completed or incomplete).
    private(set) var ended = false
    private var calls: [ToolCall] = []
    /// The summary part the reasoning text shown is in: its item's id and its index (each item
    /// numbers its parts from 0).
    private var summaryPart: (item: String?, index: Int)?
    /// The web searches whose query was shown, by item id; how many were done.
    private var searchesShown: Set<String> = []
    private var searches = 0
    /// The message items whose citations came in annotation events, by id: not cited again when
    /// they are done.
    private var annotated: Set<String> = []

    /// The shape of the last event read in full.
    private var shape: JSONShape<ResponsesEventDTO>?

    var isComplete: Bool { ended || isDone }

    mutating func decode(_ event: RawSSEEvent, _ emit: (ChatEvent) -> Void) throws(ChatError) {
        guard !isDone else { return }
        if let legacy = event.legacyError { throw .streamError(message: legacy.trimmingASCIIWhitespace()) }
        let data = event.data
        if data.isEmpty || ended { return }
        if data.hasBytes(of: "[DONE]") {
            isDone = true
            return
        }
        // An event shaped like the last one read in full (each text delta after the first: the
        // sequence number and the obfuscation string change, the shape does not) is read through
        // that one's shape, in place (`JSONShape`): a text delta's text is all that leaves it;
        // any other event is read in full.
        let shaped = shape?.read(data) { event -> String?? in
            guard event.type == "response.output_text.delta" else { return .none }
            return .some(event.delta)
        }
        if case .some(.some(let text)) = shaped {
            if let text, !text.isEmpty { emit(.text(text)) }
            return
        }
        let decoded: ResponsesEventDTO?
        do {
            let read = try JSONShape<ResponsesEventDTO>.reading(data)
            decoded = read.0
            if let next = read.1 { shape = next }
        } catch {
            throw .malformedResponse("an event is not JSON: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        guard let decoded else { return }
        try take(decoded, emit)
    }

    /// One event, read.
    private mutating func take(_ event: ResponsesEventDTO, _ emit: (ChatEvent) -> Void) throws(ChatError) {
        switch event.type {
        case "response.output_text.delta", "response.refusal.delta":
            if let delta = event.delta, !delta.isEmpty { emit(.text(delta)) }
        case "response.reasoning_summary_text.delta":
            guard let delta = event.delta, !delta.isEmpty else { return }
            let part = (item: event.item_id ?? summaryPart?.item, index: event.summary_index ?? summaryPart?.index ?? 0)
            if let shown = summaryPart, shown != part { emit(.reasoning("\n\n")) }
            summaryPart = part
            emit(.reasoning(delta))
        case "response.output_item.added":
            guard let item = event.item, item.type == "web_search_call" else { return }
            showSearch(item, emit)
        case "response.output_text.annotation.added":
            guard let citation = event.annotation.flatMap(ResponsesWebSearch.citation) else { return }
            annotated.insert(event.item_id ?? "")
            emit(.cited(citation))
        case "response.output_item.done":
            guard let item = event.item else { return }
            take(item, emit)
        case "response.completed":
            finish(event.response, reason: "stop", emit)
        case "response.incomplete":
            let reason = event.response?.incomplete_details?.reason
            finish(
                event.response, reason: reason == "max_output_tokens" || reason == nil ? "length" : reason ?? "length",
                emit)
        case "response.failed":
            throw .streamError(message: event.response?.error?.summary ?? "the response failed")
        case "error":
            // Documented with its fields flat; the live API nests them in `error`.
            let error = ResponseDTO.ErrorDTO(
                code: event.code ?? event.error?.code, message: event.message ?? event.error?.message)
            throw .streamError(message: error.summary)
        default:
            return
        }
    }

    /// An output item done: a reasoning item kept whole (when it can go back), a call noted.
    private mutating func take(_ item: ResponsesItemDTO, _ emit: (ChatEvent) -> Void) {
        switch item.type {
        case "reasoning":
            if let block = Self.thinking(item) { emit(.thinking(block)) }
        case "function_call":
            calls.append(ToolCall(id: item.call_id ?? "", name: item.name ?? "", argumentsText: item.arguments ?? ""))
        case "message":
            // Its citations, unless their annotation events said them (a server may send none).
            guard !annotated.contains(item.id ?? "") else { return }
            ResponsesWebSearch.citations(in: item).forEach { emit(.cited($0)) }
        case "web_search_call":
            showSearch(item, emit)
            searches += 1
            emit(.searched(ResponsesWebSearch.block(item)))
        default:
            return
        }
    }

    /// A search's query, once an item says it (the first time only).
    private mutating func showSearch(_ item: ResponsesItemDTO, _ emit: (ChatEvent) -> Void) {
        guard let query = ResponsesWebSearch.query(item) else { return }
        if let id = item.id, !searchesShown.insert(id).inserted { return }
        emit(.searching(query: query))
    }

    /// The end: the calls (or, when no item said them, those of the response's output), why it
    /// ended, and the usage.
    private mutating func finish(_ response: ResponseDTO?, reason: String, _ emit: (ChatEvent) -> Void) {
        ended = true
        if calls.isEmpty {
            for item in response?.output ?? [] where item.type == "function_call" { take(item, emit) }
        }
        if !calls.isEmpty { emit(.toolCalls(calls)) }
        emit(.finished(reason: !calls.isEmpty && reason == "stop" ? "tool_calls" : reason))
        if searches == 0 { searches = response?.output?.count { $0.type == "web_search_call" } ?? 0 }
        if var usage = response?.usage?.toDomain() {
            usage.model = response?.model
            if searches > 0 { usage.webSearches = searches }
            emit(.usage(usage))
        }
    }

    /// A reasoning item as a thinking block to send back: its summary and encrypted reasoning;
    /// nil when it has no encrypted reasoning (without it, and with the server keeping nothing,
    /// it cannot go back).
    static func thinking(_ item: ResponsesItemDTO) -> ThinkingBlock? {
        guard let content = item.encrypted_content, !content.isEmpty else { return nil }
        return .encryptedReasoning(summary: (item.summary ?? []).compactMap(\.text), content: content)
    }
}
