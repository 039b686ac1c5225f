import ChatDomain
import ChatTestSupport
import Foundation
import Testing

@testable import ChatHTTP
@testable import ChatProviders

/// `--effort` on the Chat Completions wire, against a scripted server: `reasoning_effort`
/// whenever an effort is set, whatever the model (`max` as `xhigh`, its highest), nothing when
/// none is; the reasoning tokens a server reports; and a refused level's words reaching the
/// person as the server said them.
@Suite(.onOwnThread) struct OpenAIEffortTests {
    static func sent(_ effort: ReasoningEffort?, model: String = "gpt-5.2") async throws -> [String: Any] {
        let server = try LoopbackServer { _, _ in ServerStep.sse([ServerStep.finishChunk()]) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        var request = ServerGPTRepositoryTests.request()
        request.settings.model = model
        if let effort { request.settings.sampling[.effort] = .effort(effort) }
        let result = await ServerGPTRepositoryTests.collect(
            ServerGPTRepositoryTests.repository(server).streamChat(request))
        #expect(result.error == nil)
        return try ServerGPTRepositoryTests.json(try #require(server.requests.first))
    }

    @Test(
        "each level is sent as reasoning_effort, max as xhigh",
        arguments: [
            (ReasoningEffort.none, "none"), (.minimal, "minimal"), (.low, "low"), (.medium, "medium"),
            (.high, "high"), (.xhigh, "xhigh"), (.max, "xhigh"),
        ])
    func eachLevelIsSent(effort: ReasoningEffort, wire: String) async throws {
        #expect(try await Self.sent(effort)["reasoning_effort"] as? String == wire)
    }

    @Test func anEffortIsSentWhateverTheModelAndNothingWithoutOne() async throws {
        // A local server's model: the table of OpenAI's models is not asked.
        #expect(try await Self.sent(.low, model: "qwen3-8b")["reasoning_effort"] as? String == "low")
        #expect(try await Self.sent(nil)["reasoning_effort"] == nil)
        #expect(try await Self.sent(nil)["reasoning"] == nil)
    }

    @Test func reasoningTokensAreReadFromTheUsage() async throws {
        let usage =
            #"{"id":"c","object":"chat.completion.chunk","created":1,"model":"o3","choices":[],"usage":"#
            + #"{"prompt_tokens":20,"completion_tokens":300,"total_tokens":320,"#
            + #""prompt_tokens_details":{"cached_tokens":10},"completion_tokens_details":{"reasoning_tokens":256}}}"#
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("4"), ServerStep.finishChunk(), usage])
        }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        let result = await ServerGPTRepositoryTests.collect(
            ServerGPTRepositoryTests.repository(server).streamChat(ServerGPTRepositoryTests.request()))
        #expect(
            result.events.last
                == .usage(
                    TokenUsage(
                        promptTokens: 20, completionTokens: 300, totalTokens: 320, cacheReadTokens: 10,
                        reasoningTokens: 256, model: "o3")))
    }

    @Test func aRefusedLevelIsTheServersWordsAndIsNotSentAgain() async throws {
        // OpenAI's words for a level a model does not take.
        let body =
            #"{"error":{"message":"Unsupported value: 'reasoning_effort' does not support 'xhigh' with this model. "#
            + #"Supported values are: 'low', 'medium', and 'high'.","type":"invalid_request_error","#
            + #""param":"reasoning_effort","code":"unsupported_value"}}"#
        let server = try LoopbackServer { _, _ in ServerStep.json(status: 400, body) }
        defer { LoopbackTestHelpers.stopInBackground(server) }
        var request = ServerGPTRepositoryTests.request()
        request.settings.sampling[.effort] = .effort(.xhigh)
        let result = await ServerGPTRepositoryTests.collect(
            ServerGPTRepositoryTests.repository(server).streamChat(request))
        let error = try #require(result.error as? ChatError)
        guard case .badRequest(400, let message) = error else {
            Issue.record("\(error)")
            return
        }
        #expect(message.contains("'reasoning_effort' does not support 'xhigh'"))
        #expect(server.requests.count == 1)
    }
}
