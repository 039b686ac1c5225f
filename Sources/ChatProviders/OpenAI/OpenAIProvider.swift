import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// OpenAI's chat completions API, as OpenAI and the servers compatible with it speak it:
/// `POST /chat/completions`, answered as Server-Sent Events or one JSON body, and errors in
/// every shape those servers send.
///
/// One quirk is handled here: some servers reject `stream_options` with a 400, so after a 400
/// whose error names `stream_options` (its `param`, or its message) the request is sent once
/// more without it, and if that works, it is left out from then on. Any other 400 (a bad
/// temperature, a prompt over the context length) is sent once.
struct OpenAIProvider: ChatProvider {
    /// Whether the profile's model takes images (`images`): if not, each goes as a note.
    var takesImages = true
    private let quirks = OpenAIServerQuirks()
    private let toldSentAsText = OnceFlag()

    let chatPath = "/chat/completions"

    func variant(for request: ChatRequest) -> OpenAIRequestVariant {
        OpenAIRequestVariant(
            includeUsage: request.settings.stream && !quirks.streamOptionsRejected.load(ordering: .relaxed))
    }

    func chatRequest(for request: ChatRequest, variant: OpenAIRequestVariant) throws(ChatError) -> ProviderRequest {
        let dto = ChatCompletionRequestDTO(
            request, includeUsage: variant.includeUsage, takesImages: takesImages)
        var shaped = try ProviderRequest.answer(path: chatPath, body: dto.jsonBytes, stream: request.settings.stream)
        shaped.sentAsText = dto.sentAsText && toldSentAsText.set()
        return shaped
    }

    func fallback(from variant: OpenAIRequestVariant, after error: ChatError, detail: ServerErrorDetail?)
        -> OpenAIRequestVariant?
    {
        guard case .badRequest(400, let message) = error, variant.includeUsage else { return nil }
        let named = [detail?.param, message].contains { $0?.lowercased().contains("stream_options") == true }
        return named ? OpenAIRequestVariant(includeUsage: false) : nil
    }

    var sampleEvents: [UInt8] {
        let chunk =
            #"data: {"id":"chatcmpl-0","object":"chat.completion.chunk","created":0,"model":"m","#
            + #""choices":[{"index":0,"delta":{"content":"a"},"logprobs":null,"finish_reason":null}]}"#
        return Array((chunk + "\n\n" + chunk + "\n\n").utf8)
    }

    func fallbackWorked(_ variant: OpenAIRequestVariant) {
        quirks.streamOptionsRejected.store(true, ordering: .relaxed)
    }

    func makeStreamDecoder() -> ChatStreamDecoder {
        ChatStreamDecoder()
    }

    /// A 200 whose body is JSON: a whole completion, or an error.
    func decodeWhole(_ body: [UInt8], _ emit: (ChatEvent) -> Void) throws(ChatError) {
        let completion = try? JSONReader.read(ChatCompletionDTO.self, from: body)
        if let error = completion?.error.summary() {
            throw .streamError(message: error.message)
        }
        guard let completion, completion.choices?.isEmpty == false else {
            let text = String(decoding: body.prefix(200), as: UTF8.self)
            throw .malformedResponse("the answer is neither an event stream nor a completion: \(text)")
        }
        completion.forEachEvent(emit)
    }

    func errorDetail(in body: [UInt8]) -> ServerErrorDetail? {
        (try? JSONReader.read(APIErrorDTO.self, from: body))?.serverErrorDetail
    }

    /// `GET /models`: one page, the whole list.
    func modelsRequest(after cursor: String?) -> ProviderRequest {
        ProviderRequest(method: "GET", path: "/models", accept: "application/json", acceptCompression: true)
    }

    /// vLLM's model list gives each model's window; llama.cpp's `/props` (at the server's root)
    /// the context one request may use.
    var contextWindowQueries: [ContextWindowQuery] {
        [
            ContextWindowQuery(request: modelsRequest(after: nil)) { body, model in
                guard let models = (try? JSONReader.read(ModelListDTO.self, from: body))?.data else { return nil }
                let entry = models.first { $0.id == model } ?? (models.count == 1 ? models.first : nil)
                return entry?.max_model_len
            },
            ContextWindowQuery(
                request: {
                    var request = ProviderRequest(method: "GET", path: "/props", accept: "application/json")
                    request.fromOrigin = true
                    return request
                }()
            ) { body, _ in
                (try? JSONReader.read(ServerPropsDTO.self, from: body))?.default_generation_settings?.n_ctx
            },
        ]
    }

    func modelPage(in body: [UInt8]) -> ModelPage? {
        guard let list = try? JSONReader.read(ModelListDTO.self, from: body), list.data != nil else {
            return nil
        }
        return ModelPage(models: list.toDomain(), nextCursor: nil)
    }
}
