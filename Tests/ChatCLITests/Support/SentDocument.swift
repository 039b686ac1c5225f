import ChatTestSupport
import Foundation
import Testing

/// What the tests of files (a PDF from disk or a URL) read of the requests chat sent: a body as
/// JSON, a user message's content parts, each provider's shape of a PDF, and a Responses server
/// that answers "read".
enum SentDocument {
    /// Request `index`'s body.
    static func body(_ server: LoopbackServer, _ index: Int) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(try server.request(index).body)) as? [String: Any])
    }

    /// The content of the first user message of `body` (`messages`, or the Responses `input`).
    static func firstUserContent(_ body: [String: Any]) throws -> [[String: Any]] {
        let messages = try #require((body["messages"] ?? body["input"]) as? [[String: Any]])
        return try #require(messages.first { $0["role"] as? String == "user" }?["content"] as? [[String: Any]])
    }

    /// The content of the first user message of request `index` to `server`.
    static func firstUserContent(of server: LoopbackServer, _ index: Int) throws -> [[String: Any]] {
        try firstUserContent(try body(server, index))
    }

    /// `value` as JSON with sorted keys, to compare.
    static func json(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys]), as: UTF8.self)
    }

    /// A PDF as a data URL.
    static func dataURL(_ pdf: [UInt8]) -> String {
        "data:application/pdf;base64," + Data(pdf).base64EncodedString()
    }

    /// A PDF as Anthropic's `document` block.
    static func anthropicDocument(_ pdf: [UInt8]) -> [String: Any] {
        [
            "type": "document",
            "source": ["type": "base64", "media_type": "application/pdf", "data": Data(pdf).base64EncodedString()],
        ]
    }

    /// A PDF as a Chat Completions `file` part.
    static func chatCompletionsFile(_ pdf: [UInt8], named name: String) -> [String: Any] {
        ["type": "file", "file": ["filename": name, "file_data": dataURL(pdf)]]
    }

    /// A PDF as a Responses `input_file` part.
    static func responsesFile(_ pdf: [UInt8], named name: String) -> [String: Any] {
        ["type": "input_file", "filename": name, "file_data": dataURL(pdf)]
    }

    /// A Responses server that answers every request "read", and a chat whose profile `r` uses it.
    static func responsesServer() throws -> (LoopbackServer, ChatBinary, [String]) {
        let events = [
            #"{"type":"response.output_text.delta","item_id":"m","output_index":0,"content_index":0,"delta":"read"}"#,
            #"{"type":"response.completed","response":{"id":"r","status":"completed","output":[],"#
                + #""usage":{"input_tokens":3,"output_tokens":1,"total_tokens":4}}}"#,
        ]
        let server = try LoopbackServer { _, _ in ServerStep.sse(events, done: false) }
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-openai-secret"])
        let config = try chat.writeConfig(
            #"{"profiles": {"r": {"provider": "openai-responses", "base_url": "\#(server.baseURL)"}}}"#)
        return (server, chat, ["--config", config, "--profile", "r"])
    }
}
