import ChatDomain

/// One kind of server API (OpenAI's chat completions; in time Anthropic's messages, a local
/// server's native API) as the engine needs to know it: how a request for an answer looks, how
/// its answers, error bodies and model lists read, and which request to send instead after a
/// failure.
///
/// Everything else is the engine's (`RequestRunner`): the server's address and key, retries with
/// backoff and `Retry-After`, `--verbose` diagnostics with secrets redacted, status and transport
/// failures as `ChatError`, and Server-Sent Events. A provider never writes the key's header.
///
/// The runner is generic over its provider, so the per-event path (`StreamDecoder.decode`) is a
/// direct call, never through an existential.
package protocol ChatProvider: Sendable {
    /// Reads the provider's event stream; a new one for each request.
    associatedtype StreamDecoder: StreamEventDecoder
    /// What the provider chooses per request and may change after a failure (OpenAI: whether to
    /// ask for usage with `stream_options`).
    associatedtype RequestVariant: Sendable

    /// Where a request for an answer goes, after the server's base URL (a connection made ahead
    /// is made for it).
    var chatPath: String { get }
    /// The variant to try first for `request`.
    func variant(for request: ChatRequest) -> RequestVariant
    /// The request for an answer to `request`, shaped by `variant`.
    func chatRequest(for request: ChatRequest, variant: RequestVariant) throws(ChatError) -> ProviderRequest
    /// A variant to send at once after `error` (no retry counted, no wait), or nil to let the
    /// retry policy decide; `detail` is what the error response's body said, if it was one of
    /// the provider's error objects.
    func fallback(from variant: RequestVariant, after error: ChatError, detail: ServerErrorDetail?) -> RequestVariant?
    /// A fallback variant was answered: the provider may keep to it for later requests.
    func fallbackWorked(_ variant: RequestVariant)
    /// What `--verbose` says when a request is sent again as `variant`; nil for nothing.
    func fallbackNote(_ variant: RequestVariant) -> String?

    /// Whether the API can continue an answer whose stream broke (`continuation(of:after:variant:)`
    /// may give a request): the reader keeps an answer's text only then.
    var continuesAnswers: Bool { get }
    /// The request that continues an answer whose stream broke after `shown` (its text so far,
    /// trailing whitespace removed): `request` with that text as the assistant's last message (a
    /// prefill), shaped by `variant`; nil when the API or the model cannot continue an answer.
    func continuation(of request: ChatRequest, after shown: String, variant: RequestVariant) -> ChatRequest?
    /// Whether `error`, the failure of a continuation (`continuation(of:after:variant:)`) for
    /// `model`, says the model takes no prefill; the provider then asks it for none again this run.
    func refusesContinuation(_ error: ChatError, detail: ServerErrorDetail?, model: String) -> Bool
    /// The stop reason with which the server pauses a turn before it is done, for the client to
    /// send the answer so far back as the assistant's last message and let it go on (Anthropic's
    /// `pause_turn`, with server tools); nil when the API has none.
    var pauseReason: String? { get }

    /// A decoder for one streamed answer.
    func makeStreamDecoder() -> StreamDecoder
    /// A few events of an everyday streamed answer, as the server sends them. The reader runs
    /// them through a throwaway parser and decoder while the request is on its way, so that
    /// the first event's one-time costs (type metadata, lazily bound symbols) fall in that wait
    /// rather than in the time to the first token.
    var sampleEvents: [UInt8] { get }
    /// Hands on the events of an answer sent whole, as one JSON body.
    func decodeWhole(_ body: [UInt8], _ emit: (ChatEvent) -> Void) throws(ChatError)
    /// What the body of an error response says, if it is one of the provider's error objects.
    func errorDetail(in body: [UInt8]) -> ServerErrorDetail?

    /// The request for a page of the server's models: the first when `cursor` is nil, else the
    /// page after the one whose `ModelPage.nextCursor` it is.
    func modelsRequest(after cursor: String?) -> ProviderRequest
    /// The models in a page's body, and what names the next page; nil if it holds no model list.
    func modelPage(in body: [UInt8]) -> ModelPage?
    /// Where the server says a model's context window, in the order to ask: a request, and what
    /// its body says of a model's window (nil: nothing).
    var contextWindowQueries: [ContextWindowQuery] { get }
    /// The largest request body, in bytes, the API documents taking; a request over it that
    /// carries files is refused before it is sent (`RequestSizeCheck`). Nil: none known.
    var requestByteLimit: Int? { get }
}

/// A request that may tell a model's context window, and how to read its answer.
package struct ContextWindowQuery: Sendable {
    package var request: ProviderRequest
    package var read: @Sendable (_ body: [UInt8], _ model: String) -> Int?

    package init(request: ProviderRequest, read: @escaping @Sendable (_ body: [UInt8], _ model: String) -> Int?) {
        self.request = request
        self.read = read
    }
}

extension ChatProvider {
    /// None known.
    package var requestByteLimit: Int? { nil }

    /// Nowhere: the server says nothing of windows.
    package var contextWindowQueries: [ContextWindowQuery] { [] }

    /// Nothing said of a fallback.
    package func fallbackNote(_ variant: RequestVariant) -> String? { nil }

    /// No continuation: the API has no way to go on with an answer (OpenAI's).
    package var continuesAnswers: Bool { false }

    package func continuation(of request: ChatRequest, after shown: String, variant: RequestVariant) -> ChatRequest? {
        nil
    }

    package func refusesContinuation(_ error: ChatError, detail: ServerErrorDetail?, model: String) -> Bool {
        false
    }

    /// No pause: the API's turns end when they end.
    package var pauseReason: String? { nil }
}
