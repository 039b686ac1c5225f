import ChatDomain
import Testing

@testable import ChatConfig
@testable import ChatHTTP
@testable import ChatHistory
@testable import ChatJSON
@testable import ChatPresentation
@testable import ChatProviders
@testable import ChatTestSupport

// MARK: - Helpers

/// What feeding a run of events to a fresh `ChatStreamDecoder` gave.
private struct DecodeRun {
    var events: [ChatEvent] = []
    var error: ChatError?
    var decoder = ChatStreamDecoder()
}

/// Feeds `events` in order to one decoder, stopping at the first error, as the repository does.
private func decodeStream(_ events: [SSEEvent]) -> DecodeRun {
    var run = DecodeRun()
    var emitted: [ChatEvent] = []
    for event in events {
        do throws(ChatError) {
            try run.decoder.decode(event) { emitted.append($0) }
        } catch {
            run.error = error
            break
        }
    }
    run.events = emitted
    return run
}

/// A `data:`-only event, as the SSE parser hands on a plain chunk.
private func data(_ text: String) -> SSEEvent { SSEEvent(data: text) }

/// One chunk as the stream decoder reads it.
private func readChunk(_ json: String) throws -> ChatCompletionDTO {
    try #require(try JSONReader.read(ChatCompletionDTO.self, from: json))
}

/// Decodes one chunk and returns the events `forEachStreamEvent` gives for it.
private func eventsOfChunk(_ json: String) throws -> [ChatEvent] {
    var events: [ChatEvent] = []
    try readChunk(json).forEachStreamEvent { events.append($0) }
    return events
}

// MARK: - Real-shaped chunks

private enum Chunks {
    // OpenAI, with stream_options.include_usage: every chunk carries "usage": null until the last.
    static let openAIFirst = """
        {"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion.chunk","created":1741569952,\
        "model":"gpt-4o-mini-2024-07-18","service_tier":"default","system_fingerprint":"fp_06737a9306",\
        "choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,\
        "finish_reason":null}],"usage":null,"obfuscation":"x4Z"}
        """
    static func openAIContent(_ text: String) -> String {
        """
        {"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion.chunk","created":1741569952,\
        "model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_06737a9306",\
        "choices":[{"index":0,"delta":{"content":"\(text)"},"logprobs":null,"finish_reason":null}],"usage":null}
        """
    }
    static let openAIFinish = """
        {"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion.chunk","created":1741569952,\
        "model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_06737a9306",\
        "choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"stop"}],"usage":null}
        """
    static let openAIUsage = """
        {"id":"chatcmpl-B9MBs8CjcvOU2jLn4n570S5qMJKcT","object":"chat.completion.chunk","created":1741569952,\
        "model":"gpt-4o-mini-2024-07-18","system_fingerprint":"fp_06737a9306","choices":[],\
        "usage":{"prompt_tokens":19,"completion_tokens":10,"total_tokens":29,\
        "prompt_tokens_details":{"cached_tokens":0,"audio_tokens":0},\
        "completion_tokens_details":{"reasoning_tokens":0,"audio_tokens":0,\
        "accepted_prediction_tokens":0,"rejected_prediction_tokens":0}}}
        """

    // Azure OpenAI: a first chunk with no choices, only the prompt's content-filter results.
    static let azureFirst = """
        {"choices":[],"created":0,"id":"","model":"","object":"","prompt_filter_results":[{"prompt_index":0,\
        "content_filter_results":{"hate":{"filtered":false,"severity":"safe"},\
        "self_harm":{"filtered":false,"severity":"safe"},"sexual":{"filtered":false,"severity":"safe"},\
        "violence":{"filtered":false,"severity":"safe"}}}]}
        """
    static let azureContent = """
        {"choices":[{"content_filter_results":{"hate":{"filtered":false,"severity":"safe"}},\
        "delta":{"content":"Hello"},"finish_reason":null,"index":0,"logprobs":null}],\
        "created":1741569952,"id":"chatcmpl-AZ1","model":"gpt-4o-2024-08-06","object":"chat.completion.chunk",\
        "system_fingerprint":"fp_b705f0c291"}
        """

    // llama.cpp server.
    static let llamaFirst = """
        {"choices":[{"finish_reason":null,"index":0,"delta":{"role":"assistant","content":null}}],\
        "created":1741569952,"id":"chatcmpl-Xr2","model":"gemma-3-270m-it","system_fingerprint":"b5280-27ebfca",\
        "object":"chat.completion.chunk"}
        """
    static let llamaContent = """
        {"choices":[{"finish_reason":null,"index":0,"delta":{"content":"Hi"}}],"created":1741569952,\
        "id":"chatcmpl-Xr2","model":"gemma-3-270m-it","system_fingerprint":"b5280-27ebfca",\
        "object":"chat.completion.chunk"}
        """
    static let llamaFinal = """
        {"choices":[{"finish_reason":"stop","index":0,"delta":{}}],"created":1741569952,"id":"chatcmpl-Xr2",\
        "model":"gemma-3-270m-it","system_fingerprint":"b5280-27ebfca","object":"chat.completion.chunk",\
        "usage":{"completion_tokens":2,"prompt_tokens":11,"total_tokens":13},\
        "timings":{"prompt_n":11,"prompt_ms":21.5,"prompt_per_token_ms":1.95,"prompt_per_second":511.6,\
        "predicted_n":2,"predicted_ms":8.1,"predicted_per_token_ms":4.05,"predicted_per_second":246.9}}
        """

    // DeepSeek (reasoning_content) and Ollama (reasoning).
    static let deepSeekReasoning = """
        {"id":"5f3c","object":"chat.completion.chunk","created":1741569952,"model":"deepseek-reasoner",\
        "system_fingerprint":"fp_5417b77867_prod0225","choices":[{"index":0,\
        "delta":{"content":null,"reasoning_content":"Let me think"},"logprobs":null,"finish_reason":null}]}
        """
    static let ollamaReasoning = """
        {"id":"chatcmpl-406","object":"chat.completion.chunk","created":1741569952,"model":"qwen3:0.6b",\
        "system_fingerprint":"fp_ollama","choices":[{"index":0,\
        "delta":{"role":"assistant","content":"","reasoning":"Okay, the user"},"finish_reason":null}]}
        """

    static let refusal = """
        {"id":"chatcmpl-R","object":"chat.completion.chunk","created":1741569952,"model":"gpt-4o",\
        "choices":[{"index":0,"delta":{"refusal":"I can't help with that."},"logprobs":null,\
        "finish_reason":null}]}
        """
}

// MARK: - ChatCompletionDTO

@Suite("Chunk DTO decoding")
struct ChunkDTODecodingTests {
    // What chat does not use (`id`, `created`, `model`, …) is no longer kept: only the rest is read.
    @Test("an OpenAI first chunk decodes what chat uses")
    func openAIFirstChunkDecodes() throws {
        let chunk = try readChunk(Chunks.openAIFirst)
        #expect(chunk.error.isErrorObject == false)
        #expect(chunk.usage == nil)
        let choice = try #require(chunk.choices?.first)
        #expect(chunk.choices?.count == 1)
        #expect(choice.index == 0)
        #expect(choice.finish_reason == nil)
        #expect(choice.delta?.role == "assistant")
        #expect(choice.delta?.content == "")
        #expect(choice.delta?.refusal == nil)
    }

    @Test("a usage chunk with no choices decodes its counts")
    func usageChunkDecodes() throws {
        let chunk = try readChunk(Chunks.openAIUsage)
        #expect(chunk.choices?.isEmpty == true)
        // (`prompt_tokens_details.cached_tokens` is read too, for `--json`'s usage.)
        #expect(
            chunk.usage
                == UsageDTO(
                    prompt_tokens: 19, completion_tokens: 10, total_tokens: 29,
                    prompt_tokens_details: UsageDTO.PromptDetailsDTO(cached_tokens: 0),
                    completion_tokens_details: UsageDTO.CompletionDetailsDTO(reasoning_tokens: 0)))
        #expect(chunk.finishReason == nil)
    }

    @Test("an Azure first chunk with empty id, model and object and prompt_filter_results decodes")
    func azureFirstChunkDecodes() throws {
        let chunk = try readChunk(Chunks.azureFirst)
        #expect(chunk.error.isErrorObject == false)
        #expect(chunk.choices?.isEmpty == true)
    }

    @Test("an empty object decodes with every field nil")
    func emptyObjectDecodes() throws {
        let chunk = try readChunk("{}")
        #expect(chunk == ChatCompletionDTO())
    }

    @Test("llama.cpp's final chunk decodes finish reason and usage beside timings")
    func llamaFinalChunkDecodes() throws {
        let chunk = try readChunk(Chunks.llamaFinal)
        #expect(chunk.finishReason == "stop")
        #expect(chunk.usage == UsageDTO(prompt_tokens: 11, completion_tokens: 2, total_tokens: 13))
    }
}

// MARK: - forEachEvent

struct ChunkEventCase: Sendable, CustomTestStringConvertible {
    let name: String
    let json: String
    let expected: [ChatEvent]

    init(_ name: String, _ json: String, _ expected: [ChatEvent]) {
        self.name = name
        self.json = json
        self.expected = expected
    }

    var testDescription: String { name }
}

private let chunkEventCases: [ChunkEventCase] = [
    ChunkEventCase("OpenAI first chunk (role, empty content, null refusal) gives nothing", Chunks.openAIFirst, []),
    ChunkEventCase("a content piece gives text", Chunks.openAIContent("Hello"), [.text("Hello")]),
    ChunkEventCase(
        "a finish chunk with an empty delta gives finished", Chunks.openAIFinish, [.finished(reason: "stop")]),
    ChunkEventCase(
        "a usage chunk with no choices gives usage", Chunks.openAIUsage,
        [
            .usage(
                TokenUsage(
                    promptTokens: 19, completionTokens: 10, totalTokens: 29, cacheReadTokens: 0, reasoningTokens: 0,
                    model: "gpt-4o-mini-2024-07-18"))
        ]),
    ChunkEventCase("Azure's first chunk with no choices gives nothing", Chunks.azureFirst, []),
    ChunkEventCase("an Azure content chunk with filter results gives text", Chunks.azureContent, [.text("Hello")]),
    ChunkEventCase("llama.cpp's null content gives nothing", Chunks.llamaFirst, []),
    ChunkEventCase(
        "llama.cpp's final chunk gives finished then usage", Chunks.llamaFinal,
        [
            .finished(reason: "stop"),
            .usage(TokenUsage(promptTokens: 11, completionTokens: 2, totalTokens: 13, model: "gemma-3-270m-it")),
        ]),
    ChunkEventCase("DeepSeek reasoning_content is reasoning", Chunks.deepSeekReasoning, [.reasoning("Let me think")]),
    ChunkEventCase("Ollama reasoning is reasoning", Chunks.ollamaReasoning, [.reasoning("Okay, the user")]),
    ChunkEventCase("refusal text is answer text", Chunks.refusal, [.text("I can't help with that.")]),
    ChunkEventCase(
        "reasoning comes before text in one delta",
        #"{"choices":[{"index":0,"delta":{"content":"A","reasoning_content":"R"}}]}"#,
        [.reasoning("R"), .text("A")]),
    ChunkEventCase(
        "an unknown finish reason is passed on",
        #"{"choices":[{"index":0,"delta":{},"finish_reason":"eos_token"}]}"#,
        [.finished(reason: "eos_token")]),
    ChunkEventCase(
        "only choice 0 counts, wherever it is in the array",
        #"{"choices":[{"index":1,"delta":{"content":"B"}},{"index":0,"delta":{"content":"A"}}]}"#,
        [.text("A")]),
    ChunkEventCase(
        "a chunk holding only choice 1 gives nothing",
        #"{"choices":[{"index":1,"delta":{"content":"B"},"finish_reason":"stop"}]}"#,
        []),
    ChunkEventCase(
        "a choice without an index counts as choice 0",
        #"{"choices":[{"delta":{"content":"A"}}]}"#,
        [.text("A")]),
    ChunkEventCase(
        "usage with only prompt tokens sums the total",
        #"{"choices":[],"usage":{"prompt_tokens":4}}"#,
        [.usage(TokenUsage(promptTokens: 4, completionTokens: 0, totalTokens: 4))]),
    ChunkEventCase("usage with no counts gives nothing", #"{"choices":[],"usage":{}}"#, []),
    ChunkEventCase(
        "unknown keys everywhere are ignored",
        #"{"x":1,"choices":[{"index":0,"y":[1,2],"delta":{"content":"A","tool_calls":null,"z":{}}}],"w":null}"#,
        [.text("A")]),
]

@Suite("Chunk to events")
struct ChunkEventTests {
    @Test("a chunk maps to its events", arguments: chunkEventCases)
    func chunkMapsToEvents(_ testCase: ChunkEventCase) throws {
        #expect(try eventsOfChunk(testCase.json) == testCase.expected)
    }
}

// MARK: - ChatStreamDecoder

@Suite("Chat stream decoder")
struct ChatStreamDecoderTests {
    @Test("a whole OpenAI stream gives text, finished and usage, and is done at [DONE]")
    func openAIStreamDecodes() {
        let run = decodeStream([
            data(Chunks.openAIFirst),
            data(Chunks.openAIContent("Hel")),
            data(Chunks.openAIContent("lo")),
            data(Chunks.openAIFinish),
            data(Chunks.openAIUsage),
            data("[DONE]"),
        ])
        #expect(run.error == nil)
        #expect(
            run.events == [
                .text("Hel"), .text("lo"), .finished(reason: "stop"),
                .usage(
                    TokenUsage(
                        promptTokens: 19, completionTokens: 10, totalTokens: 29, cacheReadTokens: 0, reasoningTokens: 0,
                        model: "gpt-4o-mini-2024-07-18")
                ),
            ])
        #expect(run.decoder.isDone)
        #expect(run.decoder.finishReason == "stop")
        #expect(run.decoder.isComplete)
    }

    @Test("an Azure stream starting with a choiceless chunk gives the text")
    func azureStreamDecodes() {
        let run = decodeStream([data(Chunks.azureFirst), data(Chunks.azureContent), data(Chunks.openAIFinish)])
        #expect(run.error == nil)
        #expect(run.events == [.text("Hello"), .finished(reason: "stop")])
    }

    @Test("a llama.cpp stream with a null first content and a final usage chunk decodes")
    func llamaStreamDecodes() {
        let run = decodeStream([data(Chunks.llamaFirst), data(Chunks.llamaContent), data(Chunks.llamaFinal)])
        #expect(run.error == nil)
        #expect(
            run.events == [
                .text("Hi"), .finished(reason: "stop"),
                .usage(TokenUsage(promptTokens: 11, completionTokens: 2, totalTokens: 13, model: "gemma-3-270m-it")),
            ])
        #expect(run.decoder.finishReason == "stop")
    }

    @Test("reasoning streams as reasoning, never as text")
    func reasoningIsNotText() {
        let run = decodeStream([
            data(Chunks.deepSeekReasoning), data(Chunks.ollamaReasoning), data(Chunks.openAIContent("42")),
        ])
        #expect(run.error == nil)
        #expect(run.events == [.reasoning("Let me think"), .reasoning("Okay, the user"), .text("42")])
    }

    @Test("an unknown finish reason is accepted and completes the answer")
    func unknownFinishReasonCompletes() {
        let run = decodeStream([
            data(Chunks.openAIContent("x")),
            data(#"{"choices":[{"index":0,"delta":{},"finish_reason":"eos_token"}]}"#),
        ])
        #expect(run.error == nil)
        #expect(run.events == [.text("x"), .finished(reason: "eos_token")])
        #expect(run.decoder.finishReason == "eos_token")
        #expect(run.decoder.isComplete)
        #expect(!run.decoder.isDone)
    }

    @Test("a finish reason on choice 1 does not complete the answer")
    func finishOnOtherChoiceIsIgnored() {
        let run = decodeStream([
            data(Chunks.openAIContent("x")),
            data(#"{"choices":[{"index":1,"delta":{"content":"other"},"finish_reason":"stop"}]}"#),
        ])
        #expect(run.error == nil)
        #expect(run.events == [.text("x")])
        #expect(run.decoder.finishReason == nil)
        #expect(!run.decoder.isComplete)
    }

    @Test("a finish reason without [DONE] is complete but not done")
    func finishReasonAloneIsComplete() {
        let run = decodeStream([data(Chunks.openAIContent("x")), data(Chunks.openAIFinish)])
        #expect(run.decoder.isComplete)
        #expect(!run.decoder.isDone)
    }

    @Test("neither a finish reason nor [DONE] is not complete")
    func contentAloneIsNotComplete() {
        let run = decodeStream([data(Chunks.openAIFirst), data(Chunks.openAIContent("x"))])
        #expect(run.error == nil)
        #expect(!run.decoder.isComplete)
        #expect(!run.decoder.isDone)
        #expect(run.decoder.finishReason == nil)
    }

    @Test("a fresh decoder is not complete")
    func freshDecoderIsNotComplete() {
        let decoder = ChatStreamDecoder()
        #expect(!decoder.isComplete)
        #expect(!decoder.isDone)
    }

    @Test("[DONE] alone completes the answer", arguments: ["[DONE]", "  [DONE]  ", "\n[DONE]\n", "\t[DONE]"])
    func doneCompletes(_ payload: String) {
        let run = decodeStream([data(payload)])
        #expect(run.error == nil)
        #expect(run.events.isEmpty)
        #expect(run.decoder.isDone)
        #expect(run.decoder.isComplete)
    }

    @Test("everything after [DONE] is ignored, errors and garbage included")
    func afterDoneIsIgnored() {
        let run = decodeStream([
            data(Chunks.openAIContent("kept")),
            data("[DONE]"),
            data(Chunks.openAIContent("dropped")),
            data(#"{"error":{"message":"late","type":"server_error"}}"#),
            SSEEvent(type: "error", data: #"{"message":"late"}"#),
            SSEEvent(legacyError: #"{"message":"late"}"#),
            data("{not json"),
            data("garbage"),
        ])
        #expect(run.error == nil)
        #expect(run.events == [.text("kept")])
        #expect(run.decoder.isDone)
    }

    @Test("empty and whitespace-only data is skipped", arguments: ["", " ", "\n", " \r\n\t "])
    func blankDataIsSkipped(_ payload: String) {
        let run = decodeStream([data(payload), data(Chunks.openAIContent("x"))])
        #expect(run.error == nil)
        #expect(run.events == [.text("x")])
        #expect(!run.decoder.isDone)
    }

    @Test("answer text containing the word error is not an error")
    func textMentioningErrorIsText() {
        let run = decodeStream([
            data(Chunks.openAIContent(#"he said \"error\""#)),
            data(Chunks.openAIContent("error")),
            data(#"{"choices":[{"index":0,"delta":{"content":"fine"}}],"error":null}"#),
        ])
        #expect(run.error == nil)
        #expect(run.events == [.text(#"he said "error""#), .text("error"), .text("fine")])
    }
}

// MARK: - Errors inside the stream

struct StreamErrorCase: Sendable, CustomTestStringConvertible {
    let name: String
    let event: SSEEvent
    let message: String

    init(_ name: String, _ event: SSEEvent, _ message: String) {
        self.name = name
        self.event = event
        self.message = message
    }

    var testDescription: String { name }
}

private let streamErrorCases: [StreamErrorCase] = [
    StreamErrorCase(
        "OpenAI error object in a data event",
        data(#"{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}"#),
        "The server had an error"),
    StreamErrorCase(
        "event: error with a flat message",
        SSEEvent(type: "error", data: #"{"message":"model overloaded"}"#),
        "model overloaded"),
    StreamErrorCase(
        "event: error with an error object",
        SSEEvent(type: "error", data: #"{"error":{"message":"upstream timeout","type":"server_error"}}"#),
        "upstream timeout"),
    StreamErrorCase(
        "event: error with plain text", SSEEvent(type: "error", data: " upstream went away \n"),
        "upstream went away"),
    StreamErrorCase("event: error with no data", SSEEvent(type: "error", data: ""), "no message"),
    StreamErrorCase(
        "vLLM flat error object",
        data(
            #"{"object":"error","message":"This model's maximum context length is 4096 tokens","type":"BadRequestError","param":null,"code":400}"#
        ),
        "This model's maximum context length is 4096 tokens"),
    StreamErrorCase("error as a plain string", data(#"{"error":"backend crashed"}"#), "backend crashed"),
    StreamErrorCase(
        "legacy llama.cpp error: field with a flat object",
        SSEEvent(legacyError: #"{"code":500,"message":"slot unavailable","type":"server_error"}"#),
        "slot unavailable"),
    StreamErrorCase(
        "legacy error: field with an error object",
        SSEEvent(legacyError: #"{"error":{"message":"context full"}}"#),
        "context full"),
    StreamErrorCase("legacy error: field with plain text", SSEEvent(legacyError: " it broke "), "it broke"),
    StreamErrorCase(
        "OpenRouter error beside a choice that finished with error",
        data(
            #"{"id":"gen-1","object":"chat.completion.chunk","created":1741569952,"model":"openai/gpt-4o","provider":"OpenAI","error":{"code":"server_error","message":"Provider disconnected unexpectedly"},"choices":[{"index":0,"delta":{"content":""},"finish_reason":"error","native_finish_reason":"error"}]}"#
        ),
        "Provider disconnected unexpectedly"),
    StreamErrorCase(
        "OpenRouter error with a numeric code",
        data(#"{"error":{"code":502,"message":"Provider returned error"}}"#),
        "Provider returned error"),
    StreamErrorCase(
        "finish_reason error without an error object",
        data(#"{"choices":[{"index":0,"delta":{},"finish_reason":"error"}]}"#),
        #"the server ended the answer with finish_reason "error""#),
]

struct MalformedCase: Sendable, CustomTestStringConvertible {
    let name: String
    let payload: String

    init(_ name: String, _ payload: String) {
        self.name = name
        self.payload = payload
    }

    var testDescription: String { name }
}

private let malformedCases: [MalformedCase] = [
    MalformedCase("truncated JSON", #"{"choices":[{"index":0,"delta":{"content":"Hel"#),
    MalformedCase("a JSON string", #""choices""#),
    MalformedCase("a trailing comma", #"{"choices":[],}"#),
    MalformedCase("[DONE] followed by garbage", "[DONE]garbage"),
    MalformedCase("plain text", "hello there"),
    MalformedCase("a JSON array", "[1,2]"),
    MalformedCase("a lowercase done", "[done]"),
]

@Suite("Errors in the stream")
struct StreamErrorTests {
    @Test("a server error in the stream becomes streamError with the server's message", arguments: streamErrorCases)
    func serverErrorBecomesStreamError(_ testCase: StreamErrorCase) {
        let run = decodeStream([data(Chunks.openAIContent("partial")), testCase.event, data(Chunks.openAIFinish)])
        #expect(run.error == .streamError(message: testCase.message))
        #expect(run.events == [.text("partial")])
    }

    @Test("data that is not a chunk is malformedResponse", arguments: malformedCases)
    func nonChunkIsMalformed(_ testCase: MalformedCase) {
        let run = decodeStream([data(testCase.payload)])
        guard case .malformedResponse(let message)? = run.error else {
            Issue.record("expected malformedResponse, got \(String(describing: run.error))")
            return
        }
        #expect(message.contains(String(testCase.payload.prefix(10))))
        #expect(!run.decoder.isDone)
    }

    @Test("a long malformed payload is shown shortened")
    func longMalformedPayloadIsShortened() {
        let payload = "{" + String(repeating: "x", count: 500)
        let run = decodeStream([data(payload)])
        guard case .malformedResponse(let message)? = run.error else {
            Issue.record("expected malformedResponse, got \(String(describing: run.error))")
            return
        }
        #expect(message.count < 200)
        #expect(message.hasSuffix("…"))
    }
}
