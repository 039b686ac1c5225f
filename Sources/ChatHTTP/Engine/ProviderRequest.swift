import ChatDomain

/// A request as a provider shapes it; the engine adds the server's address, the key, the
/// configured headers and the transfer limits.
package struct ProviderRequest: Sendable {
    package var method: String
    /// Appended to the server's base URL, e.g. `/chat/completions`.
    package var path: String
    /// The media type asked for: `text/event-stream` or `application/json`.
    package var accept: String
    /// A JSON body, or nil.
    package var body: [UInt8]?
    /// Header fields of the provider's own (e.g. an API version), sent after the key.
    package var headers: [(name: String, value: String)] = []
    /// `path` is from the server's origin, not its base URL (llama.cpp's `/props` beside `/v1`).
    package var fromOrigin = false
    /// Ask for a compressed response (not for event streams, where it may delay pieces).
    package var acceptCompression = false
    /// Parts of the conversation went as text, and the person has not been told this run: the
    /// engine says so (`ChatEvent.sentAsText`) before the answer.
    package var sentAsText = false
    /// What the provider changed of the request, to say before the answer (once a run: the
    /// provider decides).
    package var notices: [RequestNotice] = []

    /// A request as given.
    package init(
        method: String, path: String, accept: String, body: [UInt8]? = nil,
        headers: [(name: String, value: String)] = [], acceptCompression: Bool = false, sentAsText: Bool = false
    ) {
        self.method = method
        self.path = path
        self.accept = accept
        self.body = body
        self.headers = headers
        self.acceptCompression = acceptCompression
        self.sentAsText = sentAsText
    }

    /// The request for an answer: `body` (nil when the request could not be encoded: a number
    /// that is not finite) posted to `path`, asking for an event stream when `stream`.
    package static func answer(
        path: String, body: [UInt8]?, stream: Bool, headers: [(name: String, value: String)] = []
    ) throws(ChatError) -> ProviderRequest {
        guard let body else { throw .malformedResponse("could not encode the request: a number is not finite") }
        return ProviderRequest(
            method: "POST", path: path, accept: stream ? "text/event-stream" : "application/json", body: body,
            headers: headers)
    }
}
