import Foundation

/// One scripted action of the loopback server while it answers a request.
///
/// Steps play in order. After `.end` or `.close` the rest is ignored (on a server that keeps
/// connections alive, steps after `.end` still play); a script that runs out without either
/// ends like `.end`.
public enum ServerStep: Sendable {
    /// Status line and headers. If chunked, adds `Transfer-Encoding: chunked`; otherwise adds
    /// nothing about length and the body ends when the connection closes. Adds
    /// `Connection: close`, unless the server keeps connections alive. The reason phrase is chosen from the status.
    case head(status: Int, headers: [(String, String)], chunked: Bool)
    /// Body bytes: one chunk frame if the head was chunked (nothing if empty), raw otherwise.
    case body([UInt8])
    /// Bytes written exactly as given, with no framing (e.g. half a status line, garbage).
    case raw([UInt8])
    /// Sleep this many seconds before the next step.
    case pause(Double)
    /// The chunked terminator (`0\r\n\r\n`) if the head was chunked, then a clean close (on a
    /// server that keeps connections alive: the connection waits for the next request).
    case end
    /// Close the socket at once (after shutdown), without a terminator: a cut stream.
    case close
    /// Read nothing, send nothing, for this many seconds, then go on: a stalled server.
    case stall(Double)
}

extension ServerStep {
    /// A `.body` of the UTF-8 bytes of `s`.
    public static func text(_ s: String) -> ServerStep { .body(Array(s.utf8)) }

    /// A complete JSON response with `Content-Type` and an exact `Content-Length`, not chunked.
    /// A header in `headers` replaces a default of the same name.
    public static func json(status: Int, _ body: String, headers: [(String, String)] = [])
        -> [ServerStep]
    {
        let bytes = Array(body.utf8)
        let given = Set(headers.map { $0.0.lowercased() })
        let defaults = [("Content-Type", "application/json"), ("Content-Length", "\(bytes.count)")]
            .filter { !given.contains($0.0.lowercased()) }
        return [.head(status: status, headers: defaults + headers, chunked: false), .body(bytes), .end]
    }

    /// A chunked `text/event-stream` response: each event as `data: <event>\n\n` in its own chunk,
    /// `pause` seconds between chunks, then `data: [DONE]\n\n` if `done`, then `.end`.
    public static func sse(_ events: [String], status: Int = 200, pause: Double = 0, done: Bool = true)
        -> [ServerStep]
    {
        var steps: [ServerStep] = [
            .head(status: status, headers: [("Content-Type", "text/event-stream")], chunked: true)
        ]
        for (index, event) in (events + (done ? ["[DONE]"] : [])).enumerated() {
            if index > 0 && pause > 0 { steps.append(.pause(pause)) }
            steps.append(.text("data: \(event)\n\n"))
        }
        steps.append(.end)
        return steps
    }

    /// An OpenAI `chat.completion.chunk` JSON object whose `choices[0].delta.content` is `content`.
    public static func chatChunk(_ content: String) -> String {
        chunkJSON(choices: [["index": 0, "delta": ["content": content], "finish_reason": NSNull()]])
    }

    /// A `chat.completion.chunk` with an empty delta and the given `finish_reason`.
    public static func finishChunk(_ reason: String = "stop") -> String {
        chunkJSON(choices: [["index": 0, "delta": [String: Any](), "finish_reason": reason]])
    }

    /// A `chat.completion.chunk` with no choices and a `usage` object.
    public static func usageChunk(prompt: Int, completion: Int) -> String {
        let usage = ["prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion]
        return chunkJSON(choices: [], extra: ["usage": usage])
    }

    private static func chunkJSON(choices: [[String: Any]], extra: [String: Any] = [:]) -> String {
        var object: [String: Any] = [
            "id": "chatcmpl-loopback", "object": "chat.completion.chunk", "created": 1_700_000_000,
            "model": "loopback-model", "choices": choices,
        ]
        object.merge(extra) { $1 }
        // Cannot fail: every value is a string, number, null, array or dictionary.
        let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }
}
