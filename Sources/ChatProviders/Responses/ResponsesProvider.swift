import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// OpenAI's Responses API: `POST /responses` with `store: false` (stateless: every request
/// carries the conversation as input items, earlier reasoning included), answered as Server-Sent
/// Events (`ResponsesStreamDecoder`) or one JSON response; errors and the model list as OpenAI's
/// chat completions have them (`OpenAIProvider`).
///
/// A model that does not reason refuses `include: ["reasoning.encrypted_content"]`: after a 400
/// that names `include`, the request is sent once more without it, and so for the rest of the run.
struct ResponsesProvider: ChatProvider {
    /// Whether the person sees reasoning (`show_reasoning`, `/reasoning`): if not, no summary is
    /// asked for.
    var reasoning = ReasoningSwitch(shown: true)
    /// Whether the profile's model takes images (`images`): if not, each goes as a note.
    var takesImages = true
    /// Whether the server's web search is offered (`web_search`, `/web`), read at each request.
    var webSearch = WebSearchSwitch(on: false)
    private let toldSentAsText = OnceFlag()
    /// The server refused `include`: left out from then on.
    private let includeRefused = RunMemory<Bool>()
    /// Errors and model lists are read as OpenAI's.
    private let openAI = OpenAIProvider()

    let chatPath = "/responses"

    func variant(for request: ChatRequest) -> ResponsesRequestVariant {
        ResponsesRequestVariant(includeEncrypted: includeRefused.learned != true)
    }

    func chatRequest(for request: ChatRequest, variant: ResponsesRequestVariant) throws(ChatError) -> ProviderRequest {
        var dto = try ResponsesRequestDTO(
            request, includeEncrypted: variant.includeEncrypted, showsReasoning: reasoning.isOn,
            takesImages: takesImages)
        if webSearch.isOn { dto.offerWebSearch() } else { dto.leaveOutWebSearches() }
        var shaped = try ProviderRequest.answer(path: chatPath, body: dto.jsonBytes, stream: request.settings.stream)
        shaped.sentAsText = dto.sentAsText && toldSentAsText.set()
        return shaped
    }

    func fallback(from variant: ResponsesRequestVariant, after error: ChatError, detail: ServerErrorDetail?)
        -> ResponsesRequestVariant?
    {
        guard case .badRequest(400, let message) = error, variant.includeEncrypted else { return nil }
        // The parameter named, or quoted in the words (`Unknown parameter: 'include'.`); not any
        // word that merely contains "include".
        let text = detail?.message ?? message
        let named =
            detail?.param?.lowercased().hasPrefix("include") == true || text.contains("encrypted_content")
            || ["'include", "\"include", "`include", "include["].contains(where: text.contains)
        return named ? ResponsesRequestVariant(includeEncrypted: false) : nil
    }

    func fallbackWorked(_ variant: ResponsesRequestVariant) {
        includeRefused.learn(true)
    }

    func fallbackNote(_ variant: ResponsesRequestVariant) -> String? {
        "the server refused include (the model does not reason): sent again without it, and so for the rest of the run"
    }

    func makeStreamDecoder() -> ResponsesStreamDecoder {
        ResponsesStreamDecoder()
    }

    var sampleEvents: [UInt8] {
        let delta =
            #"{"type":"response.output_text.delta","item_id":"msg_0","output_index":0,"content_index":0,"#
            + #""delta":"a","sequence_number":1}"#
        return Array(("event: response.output_text.delta\ndata: " + delta + "\n\n").utf8)
    }

    /// A 200 whose body is JSON: a whole response, or an error. Its items are handed on as the
    /// stream's are: reasoning summaries (a blank line between two items'), then each
    /// reasoning item whole, the text (a refusal as text), the calls together before the stop
    /// reason.
    func decodeWhole(_ body: [UInt8], _ emit: (ChatEvent) -> Void) throws(ChatError) {
        if let detail = openAI.errorDetail(in: body) { throw .streamError(message: detail.message) }
        guard let response = (try? JSONReader.read(ResponseDTO.self, from: body)) ?? nil, let output = response.output
        else {
            let text = String(decoding: body.prefix(200), as: UTF8.self)
            throw .malformedResponse("the answer is neither an event stream nor a response: \(text)")
        }
        if response.status == "failed" { throw .streamError(message: response.error?.summary ?? "the response failed") }
        var calls: [ToolCall] = []
        var reasoned = false
        for item in output {
            switch item.type {
            case "reasoning":
                let summary = (item.summary ?? []).compactMap(\.text).filter { !$0.isEmpty }
                if !summary.isEmpty {
                    emit(.reasoning((reasoned ? "\n\n" : "") + summary.joined(separator: "\n\n")))
                    reasoned = true
                }
                if let block = ResponsesStreamDecoder.thinking(item) { emit(.thinking(block)) }
            case "message":
                for part in item.content ?? [] {
                    if let text = part.text ?? part.refusal, !text.isEmpty { emit(.text(text)) }
                }
                ResponsesWebSearch.citations(in: item).forEach { emit(.cited($0)) }
            case "function_call":
                calls.append(
                    ToolCall(id: item.call_id ?? "", name: item.name ?? "", argumentsText: item.arguments ?? ""))
            case "web_search_call":
                if let query = ResponsesWebSearch.query(item) { emit(.searching(query: query)) }
                emit(.searched(ResponsesWebSearch.block(item)))
            default:
                continue
            }
        }
        if !calls.isEmpty { emit(.toolCalls(calls)) }
        let incomplete = response.status == "incomplete"
        let reason = response.incomplete_details?.reason
        emit(
            .finished(
                reason: incomplete
                    ? (reason == "max_output_tokens" || reason == nil ? "length" : reason ?? "length")
                    : calls.isEmpty ? "stop" : "tool_calls"))
        if var usage = response.usage?.toDomain() {
            usage.model = response.model
            let searches = output.count { $0.type == "web_search_call" }
            if searches > 0 { usage.webSearches = searches }
            emit(.usage(usage))
        }
    }

    func errorDetail(in body: [UInt8]) -> ServerErrorDetail? {
        openAI.errorDetail(in: body)
    }

    func modelsRequest(after cursor: String?) -> ProviderRequest {
        openAI.modelsRequest(after: cursor)
    }

    func modelPage(in body: [UInt8]) -> ModelPage? {
        openAI.modelPage(in: body)
    }
}
