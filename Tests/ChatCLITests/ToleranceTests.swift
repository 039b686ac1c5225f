import ChatTestSupport
import Foundation
import Testing

/// Decode what chat needs, tolerate the rest: the built binary against servers that answer in
/// ways nobody here wrote — fields of unexpected types, repeated keys, lone surrogates, a stream
/// under another label, a body compressed unasked, a folded header line, a 400 that is or is not
/// about `stream_options`.
@Suite struct ToleranceTests {
    private func makeChat() -> ChatBinary {
        ChatBinary(environment: ["OPENAI_API_KEY": "sk-tolerance-SECRET-0123456789"])
    }

    private static func stream(_ events: [String], headers: [(String, String)]) -> [ServerStep] {
        [.head(status: 200, headers: headers, chunked: true)] + events.map { ServerStep.text("data: \($0)\n\n") } + [
            .end
        ]
    }

    /// One line on stderr, status 1, saying every one of `saying`, and no key.
    private func expectOneLine(
        _ result: ChatBinary.Result, saying: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("chat: error: "), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        for part in saying {
            #expect(
                result.stderr.contains(part), "missing \"\(part)\" in: \(result.stderr)", sourceLocation: sourceLocation
            )
        }
        #expect(!result.stderr.contains("SECRET"), sourceLocation: sourceLocation)
    }

    // MARK: - Fields chat does not use

    @Test func fieldsChatDoesNotUseNeverFailAnAnswer() async throws {
        let events = [
            #"{"id":12345,"object":"chat.completion.chunk","created":1741569952.123,"model":null,"system_fingerprint":{"v":[1,2]},"choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"logprobs":{"content":[]},"finish_reason":null}],"usage":null,"extra":[true,null]}"#,
            #"{"id":null,"created":"yesterday","choices":[{"index":0,"delta":{"content":"lo","content":"lo, "}}],"error":null}"#,
            #"{"choices":[null,{"index":0.0,"delta":{"content":"w\ud800rld","refusal":null,"role":7}}]}"#,
            #"{"choices":[{"index":0,"delta":{"cont\u0065nt":" \udc00\ud83d\ude00"},"finish_reason":"stop"}],"choices":[{"index":0,"delta":{"content":"!"},"finish_reason":"stop"}]}"#,
            #"{"choices":[],"usage":{"prompt_tokens":3.0,"completion_tokens":4,"total_tokens":"7","details":null}}"#,
            "[DONE]",
        ]
        let server = try LoopbackServer { _, _ in Self.stream(events, headers: [("Content-Type", "text/event-stream")])
        }
        defer { server.stop() }
        let result = try await makeChat().run(["--base-url", server.baseURL, "hi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "Hello, w\u{FFFD}rld!\n")
        #expect(result.stderr == "")
    }

    @Test func aWholeCompletionWithOddFieldsIsRead() async throws {
        let body =
            #"{"id":7,"object":"chat.completion","created":1.5e9,"model":null,"choices":[{"index":0,"message":{"role":"assistant","content":"x","content":"Fine \ud83d!"},"finish_reason":"stop"}],"usage":{"prompt_tokens":2.0,"completion_tokens":2}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 200, body) }
        defer { server.stop() }
        let result = try await makeChat().run(["--base-url", server.baseURL, "--no-stream", "hi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "Fine \u{FFFD}!\n")
    }

    // MARK: - A stream under another label

    @Test(arguments: ["application/json", "text/plain; charset=utf-8", "application/octet-stream", nil])
    func aStreamIsReadAsOneWhateverItsLabel(label: String?) async throws {
        let events = [ServerStep.chatChunk("streamed"), ServerStep.finishChunk(), "[DONE]"]
        let server = try LoopbackServer { _, _ in
            Self.stream(events, headers: label.map { [("Content-Type", $0)] } ?? [])
        }
        defer { server.stop() }
        let result = try await makeChat().run(["--base-url", server.baseURL, "hi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "streamed\n")
    }

    @Test(arguments: ["text/event-stream", "application/json"])
    func aWholeCompletionIsReadAsOneWhateverItsLabel(label: String) async throws {
        let body =
            #"  {"choices":[{"index":0,"message":{"role":"assistant","content":"whole"},"finish_reason":"stop"}]}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 200, body, headers: [("Content-Type", label)])
        }
        defer { server.stop() }
        let result = try await makeChat().run(["--base-url", server.baseURL, "hi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "whole\n")
    }

    // MARK: - Compression

    @Test func aStreamIsAskedForUncompressedAndDecodedWhenCompressedAnyway() async throws {
        let events = [
            ServerStep.chatChunk("Hello"), ServerStep.chatChunk(", gzip"), ServerStep.finishChunk(), "[DONE]",
        ]
        let plain = Array(events.map { "data: \($0)\n\n" }.joined().utf8)
        let server = try LoopbackServer { _, _ in
            [
                .head(
                    status: 200, headers: [("Content-Type", "text/event-stream"), ("Content-Encoding", "gzip")],
                    chunked: true),
                .body(Gzip.stored(plain)), .end,
            ]
        }
        defer { server.stop() }
        let result = try await makeChat().run(["--base-url", server.baseURL, "hi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "Hello, gzip\n")
        #expect(server.requests.first?.header("Accept-Encoding") == "identity")
    }

    @Test func anEncodingChatCannotDecodeIsNamedInOneLine() async throws {
        let server = try LoopbackServer { _, _ in
            [
                .head(
                    status: 200, headers: [("Content-Type", "text/event-stream"), ("Content-Encoding", "xz")],
                    chunked: true),
                .body([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00, 0x04]), .end,
            ]
        }
        defer { server.stop() }
        let result = try await makeChat().run(["--base-url", server.baseURL, "--retries", "2", "hi"])
        expectOneLine(result, saying: ["compressed its answer as \"xz\"", "cannot decode"])
        #expect(!result.stderr.contains("cut off"))
        #expect(server.requests.count == 1)
    }

    // MARK: - Folded header lines

    @Test func aFoldedHeaderLineIsJoinedToTheOneAbove() async throws {
        // Were the folded line a field of its own, the 429 would say "asks to wait 99 s".
        let body = #"{"error":{"message":"rate limit reached  "}}"#
        let head =
            "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nX-Note: slow\r\n"
            + " Retry-After: 99\r\n\tdown\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        let server = try LoopbackServer { _, _ in [.raw(Array((head + body).utf8)), .end] }
        defer { server.stop() }
        let result = try await makeChat().run(["--base-url", server.baseURL, "--retries", "0", "--verbose", "hi"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("< x-note: slow Retry-After: 99 down"), "stderr: \(result.stderr)")
        #expect(
            result.stderr.contains("429 rate limited: rate limit reached (wait a moment"), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("99 s"))
        #expect(!result.stderr.contains("< retry-after"))
    }

    // MARK: - A 400 about stream_options, or not

    @Test func a400NamingStreamOptionsIsSentAgainWithoutThem() async throws {
        let server = try LoopbackServer { request, _ in
            request.bodyText.contains("stream_options")
                ? ServerStep.json(
                    status: 400,
                    #"{"error":{"message":"Unrecognized request argument supplied","param":"stream_options"}}"#)
                : ServerStep.sse([ServerStep.chatChunk("ok"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let result = try await makeChat().run(["--base-url", server.baseURL, "hi"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "ok\n")
        #expect(server.requests.count == 2)
    }

    @Test(arguments: [
        #"{"error":{"message":"temperature must be at most 2","param":"temperature"}}"#,
        #"{"error":{"message":"This model's maximum context length is 8192 tokens.","code":"context_length_exceeded"}}"#,
    ])
    func another400IsSentOnce(body: String) async throws {
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 400, body) }
        defer { server.stop() }
        let result = try await makeChat().run(["--base-url", server.baseURL, "--retries", "2", "hi"])
        expectOneLine(result, saying: ["400 bad request: "])
        #expect(server.requests.count == 1)
    }
}

/// gzip made by hand, in stored (uncompressed) deflate blocks: what a server that compresses
/// unasked sends, without a compression library in the tests.
enum Gzip {
    static func stored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF]
        var offset = 0
        repeat {
            let count = min(65_535, data.count - offset)
            let final: UInt8 = offset + count == data.count ? 1 : 0
            out.append(final)  // BFINAL, BTYPE 00 (stored)
            out += littleEndian(UInt32(count), bytes: 2) + littleEndian(UInt32(~UInt16(count)), bytes: 2)
            out += data[offset..<offset + count]
            offset += count
        } while offset < data.count
        return out + littleEndian(crc32(data), bytes: 4)
            + littleEndian(UInt32(truncatingIfNeeded: data.count), bytes: 4)
    }

    private static func littleEndian(_ value: UInt32, bytes: Int) -> [UInt8] {
        (0..<bytes).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }

    private static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
