import ChatCatalogue
import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// Anthropic's Messages API, natively: `POST /messages` with `anthropic-version`, answered as
/// Server-Sent Events (`AnthropicStreamDecoder`) or one JSON message; errors as
/// `{"type": "error", "error": {"type", "message"}}`; models from `GET /models`, a page at a time.
/// The key goes in `x-api-key` (`ServerGPTRepository` sets the placement; the engine writes it).
///
/// Thinking is asked for in the form the model takes (`AnthropicModels`, or the profile's
/// `thinking_form`): adaptive with an effort, or a budget. When the server answers 400 that the
/// other form is needed, the request is sent once more in that form, which is kept for the rest
/// of the run.
struct AnthropicProvider: ChatProvider {
    /// The API version every request names.
    static let apiVersion = "2023-06-01"
    /// How the key is sent: never as `Authorization`.
    static let keyPlacement = APIKeyPlacement.header("x-api-key")

    /// The thinking budget asked for (`thinking_budget`), if any.
    var thinkingBudget: Int? = nil
    /// The form of thinking the profile asks for (`thinking_form`); nil: as the table says.
    var thinkingForm: ThinkingForm? = nil
    /// Whether the person sees thinking (`show_reasoning`, `/reasoning`): if not, an adaptive
    /// model is asked for none of its text.
    var reasoning = ReasoningSwitch(shown: true)
    /// Whether to mark the system prompt and the last user turn for prompt caching (`cache`).
    var cache = false
    /// Whether the profile's model takes images (`images`): if not, each goes as a note.
    var takesImages = true
    /// Whether the server's web search is offered (`web_search`, `/web`), read at each request.
    var webSearch = WebSearchSwitch(on: false)
    /// The most searches one answer may run (`web_search_max_uses`).
    var webSearchMaxUses = 5
    /// Whether the person was told this run that parts of the conversation went as text.
    private let toldSentAsText = OnceFlag()
    /// Whether the person was told this run that a budget became an effort.
    private let toldBudgetAsEffort = OnceFlag()
    /// Whether the person was told this run that `--effort none` may not stop an adaptive model
    /// thinking.
    private let toldNoThinking = OnceFlag()
    /// The form a server asked for after a 400, kept for the run.
    private let learnedForm = RunMemory<ThinkingForm>()
    /// The models that refused a prefill this run.
    private let refusedPrefill = RunMemory<Set<String>>()

    let chatPath = "/messages"

    /// The form of thinking to ask for first: the one a server asked for this run, else the
    /// profile's, else a budget when only a budget is set and the model takes one, else the
    /// table's for the model.
    func variant(for request: ChatRequest) -> ThinkingForm {
        if let form = learnedForm.learned ?? thinkingForm { return form }
        let model = AnthropicModels.thinking(of: request.settings.model)
        let budgetOnly = thinkingBudget != nil && request.settings.sampling[.effort] == nil
        return budgetOnly && model.takesBudget ? .budget : model.form
    }

    func chatRequest(for request: ChatRequest, variant form: ThinkingForm) throws(ChatError) -> ProviderRequest {
        let asked = AnthropicThinking.asked(
            effort: request.settings.sampling[.effort]?.effort, budget: thinkingBudget, form: form)
        var dto = try MessagesRequestDTO(
            request, thinking: asked?.0, showsThinking: reasoning.isOn, cache: cache, takesImages: takesImages)
        if webSearch.isOn { dto.offerWebSearch(maxUses: webSearchMaxUses) } else { dto.leaveOutWebSearches() }
        var shaped = try ProviderRequest.answer(
            path: chatPath, body: dto.jsonBytes, stream: request.settings.stream, headers: Self.headers)
        shaped.sentAsText = dto.sentAsText && toldSentAsText.set()
        if dto.thinking != nil, let effort = asked?.budgetAsEffort, let tokens = thinkingBudget,
            toldBudgetAsEffort.set()
        {
            shaped.notices = [.budgetAsEffort(tokens: tokens, effort: effort, model: request.settings.model)]
        }
        if form == .adaptive, request.settings.sampling[.effort] == .effort(.none), toldNoThinking.set() {
            shaped.notices.append(.mayThinkUnasked(model: request.settings.model))
        }
        return shaped
    }

    /// The other form of thinking, after a 400 that says the model needs it (the budget form
    /// refused: "thinking.type.enabled is not supported"; the adaptive form refused: "adaptive
    /// thinking is not supported").
    func fallback(from form: ThinkingForm, after error: ChatError, detail: ServerErrorDetail?) -> ThinkingForm? {
        guard case .badRequest(400, let message) = error else { return nil }
        let text = (detail?.message ?? message).lowercased()
        guard text.contains("not supported") || text.contains("does not support") else { return nil }
        switch form {
        case .budget where text.contains("thinking.type.enabled") || text.contains("thinking.type.adaptive"):
            return .adaptive
        case .adaptive where text.contains("adaptive") && !text.contains("thinking.type.enabled"):
            return .budget
        default:
            return nil
        }
    }

    func fallbackWorked(_ form: ThinkingForm) {
        learnedForm.learn(form)
    }

    func fallbackNote(_ form: ThinkingForm) -> String? {
        "the server asked for the \(form.rawValue) form of thinking: sent again that way, and so for the rest of the run"
    }

    /// A prefill continues an answer (for the models that take one).
    var continuesAnswers: Bool { true }

    /// `request` with `shown` as the assistant's last message, for the model to continue: only
    /// without thinking (no model takes a prefill with it) or a schema (answered by a tool call),
    /// and for a model that takes a prefill (`PrefillTable`; one it does not know unless it refused
    /// one this run).
    func continuation(of request: ChatRequest, after shown: String, variant form: ThinkingForm) -> ChatRequest? {
        let model = request.settings.model
        guard !shown.isEmpty, request.settings.responseSchema == nil,
            AnthropicThinking.asked(
                effort: request.settings.sampling[.effort]?.effort, budget: thinkingBudget, form: form)
                == nil,
            PrefillTable.takesPrefill(model) ?? !(refusedPrefill.learned ?? []).contains(model)
        else { return nil }
        var continued = request
        continued.messages.append(ChatMessage(role: .assistant, content: shown))
        return continued
    }

    /// The 400 of a model that takes no prefill: "This model does not support assistant message
    /// prefill. The conversation must end with a user message."
    func refusesContinuation(_ error: ChatError, detail: ServerErrorDetail?, model: String) -> Bool {
        guard case .badRequest(400, let message) = error else { return false }
        let text = (detail?.message ?? message).lowercased()
        guard text.contains("prefill") || text.contains("must end with a user message") else { return false }
        refusedPrefill.learn((refusedPrefill.learned ?? []).union([model]))
        return true
    }

    /// With server tools (the web search) the server may pause a long turn: the answer so far,
    /// sent back whole as the assistant's last message, lets it go on.
    var pauseReason: String? { "pause_turn" }

    func makeStreamDecoder() -> AnthropicStreamDecoder {
        AnthropicStreamDecoder()
    }

    var sampleEvents: [UInt8] {
        let delta = #"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"}}"#
        return Array(("event: content_block_delta\ndata: " + delta + "\n\n").utf8)
    }

    /// A 200 whose body is JSON: a whole message, or an error. Its blocks are handed on as the
    /// stream's are: text, thinking (as reasoning, then whole), tool calls together before the
    /// stop reason, the schema's `answer` call as text.
    func decodeWhole(_ body: [UInt8], _ emit: (ChatEvent) -> Void) throws(ChatError) {
        let message = (try? JSONReader.read(MessagesMessageDTO.self, from: body)) ?? nil
        if let message, message.type == "error" || message.error != nil {
            if message.error?.type == "overloaded_error" {
                throw .overloaded(message: message.error?.summary ?? "Overloaded")
            }
            throw .streamError(message: message.error?.summary ?? "no message")
        }
        guard let message, let content = message.content else {
            let text = String(decoding: body.prefix(200), as: UTF8.self)
            throw .malformedResponse("the answer is neither an event stream nor a message: \(text)")
        }
        var calls: [ToolCall] = []
        for block in content {
            switch block.type {
            case "thinking":
                AnthropicStreamDecoder.emitContent(of: block, emit)
                emit(.thinking(.signed(text: block.thinking ?? "", signature: block.signature ?? "")))
            case "redacted_thinking":
                emit(.thinking(.redacted(data: block.data ?? "")))
            case "tool_use" where block.name == MessagesRequestDTO.answerToolName:
                if let text = block.input?.jsonText { emit(.text(text)) }
            case "server_tool_use":
                AnthropicWebSearch.call(id: block.id ?? "", name: block.name ?? "", input: block.input ?? .object([:]))
                    .forEach(emit)
            case "web_search_tool_result":
                emit(AnthropicWebSearch.results(of: block))
            case "tool_use":
                let input = block.input ?? .object([:])
                calls.append(ToolCall(id: block.id ?? "", name: block.name ?? "", arguments: input))
            default:
                AnthropicStreamDecoder.emitContent(of: block, emit)
            }
        }
        if !calls.isEmpty { emit(.toolCalls(calls)) }
        emit(.finished(reason: message.stop_reason ?? "end_turn"))
        if var usage = message.usage?.toDomain() {
            usage.model = message.model
            emit(.usage(usage))
        }
    }

    func errorDetail(in body: [UInt8]) -> ServerErrorDetail? {
        guard let error = ((try? JSONReader.read(AnthropicErrorDTO.self, from: body)) ?? nil)?.error else {
            return nil
        }
        return ServerErrorDetail(message: error.summary)
    }

    /// `GET /models`, a page at a time: after the first, `after_id` names the last model seen.
    func modelsRequest(after cursor: String?) -> ProviderRequest {
        let query = cursor.map { "&after_id=" + Self.percentEncoded($0) } ?? ""
        return ProviderRequest(
            method: "GET", path: "/models?limit=1000" + query, accept: "application/json", headers: Self.headers,
            acceptCompression: true)
    }

    func modelPage(in body: [UInt8]) -> ModelPage? {
        guard let list = (try? JSONReader.read(AnthropicModelListDTO.self, from: body)) ?? nil, let data = list.data
        else { return nil }
        let models = data.compactMap { $0.id.map { ModelInfo(id: $0, ownedBy: "anthropic") } }
        let next = list.has_more == true ? list.last_id ?? models.last?.id : nil
        return ModelPage(models: models, nextCursor: next)
    }

    private static let headers = [(name: "anthropic-version", value: apiVersion)]

    /// `text` with every byte but unreserved ones (RFC 3986) percent-encoded, for a query value.
    private static func percentEncoded(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            let unreserved =
                (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == 0x2D || byte == 0x2E || byte == 0x5F || byte == 0x7E
            if unreserved {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".utf8)
                result += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 15)]], as: UTF8.self)
            }
        }
        return result
    }
}
