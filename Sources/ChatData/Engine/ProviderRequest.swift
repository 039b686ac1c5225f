/// A request as a provider shapes it; the engine adds the server's address, the key, the
/// configured headers and the transfer limits.
struct ProviderRequest: Sendable {
    var method: String
    /// Appended to the server's base URL, e.g. `/chat/completions`.
    var path: String
    /// The media type asked for: `text/event-stream` or `application/json`.
    var accept: String
    /// A JSON body, or nil.
    var body: [UInt8]?
    /// Header fields of the provider's own (e.g. an API version), sent after the key.
    var headers: [(name: String, value: String)] = []
    /// Ask for a compressed response (not for event streams, where it may delay pieces).
    var acceptCompression = false
    /// Parts of the conversation went as text, and the person has not been told this run: the
    /// engine says so (`ChatEvent.sentAsText`) before the answer.
    var sentAsText = false
}
