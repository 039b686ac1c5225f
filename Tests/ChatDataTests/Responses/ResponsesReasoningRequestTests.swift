import ChatDomain
import Testing

@testable import ChatProviders

/// `reasoning` and `include` in the body of `POST /responses`: the effort as issue 35's table
/// maps it, a summary asked for unless reasoning is hidden or off, and both sent when an effort
/// is set or the model reasons (by `OpenAIModels`' names), never otherwise.
@Suite struct ResponsesReasoningRequestTests {
    static let hi = [ChatMessage(role: .user, content: "Hi")]
    static let hiInput = #""input":[{"content":[{"text":"Hi","type":"input_text"}],"role":"user","type":"message"}]"#
    static let include = #""include":["reasoning.encrypted_content"]"#

    static func body(model: String, effort: ReasoningEffort? = nil, includeEncrypted: Bool = true, shows: Bool = true)
        throws -> String
    {
        try ResponsesRequestBodyTests.body(
            ResponsesRequestBodyTests.request(hi, model: model, sampling: effort.map { [.effort: .effort($0)] } ?? [:]),
            includeEncrypted: includeEncrypted, showsReasoning: shows)
    }

    /// Issue 35's table: each effort and what this API is sent for it.
    static let efforts: [(ReasoningEffort, String)] = [
        (.none, "none"), (.minimal, "minimal"), (.low, "low"), (.medium, "medium"), (.high, "high"),
        (.xhigh, "xhigh"), (.max, "xhigh"),
    ]

    @Test(arguments: efforts)
    func anEffortIsSentWithASummaryAndTheEncryptedReasoningEvenToAModelNotKnownToReason(
        effort: ReasoningEffort, wire: String
    ) throws {
        let reasoning =
            effort == .none ? #""reasoning":{"effort":"none"}"# : #""reasoning":{"effort":"\#(wire)","summary":"auto"}"#
        #expect(
            try Self.body(model: "gpt-4o", effort: effort)
                == "{\(Self.include),\(Self.hiInput),\"model\":\"gpt-4o\",\(reasoning),\"store\":false,\"stream\":true}"
        )
    }

    @Test func hiddenReasoningAsksForNoSummary() throws {
        #expect(
            try Self.body(model: "gpt-5", effort: .high, shows: false)
                == "{\(Self.include),\(Self.hiInput),"
                + #""model":"gpt-5","reasoning":{"effort":"high"},"store":false,"stream":true}"#)
        #expect(
            try Self.body(model: "gpt-5", shows: false)
                == "{\(Self.include),\(Self.hiInput),"
                + #""model":"gpt-5","reasoning":{},"store":false,"stream":true}"#)
    }

    @Test(arguments: [
        "gpt-5", "gpt-5-mini", "gpt-5.1", "gpt-5.1-codex", "o1", "o3", "o3-mini", "o4-mini", "codex-mini-latest",
        "openai/gpt-5", "openai/o3",
    ])
    func aReasoningModelWithoutAnEffortIsAskedForASummaryAndItsEncryptedReasoning(model: String) throws {
        #expect(
            try Self.body(model: model)
                == "{\(Self.include),\(Self.hiInput),"
                + #""model":"\#(model)","reasoning":{"summary":"auto"},"store":false,"stream":true}"#)
    }

    @Test(arguments: [
        "gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-5-chat-latest", "gpt-5.1-chat-latest", "gpt-5.4-chat-latest",
        "openai/gpt-4o", "llama3",
    ])
    func anotherModelWithoutAnEffortIsSentNeither(model: String) throws {
        #expect(
            try Self.body(model: model)
                == "{\(Self.hiInput),\"model\":\"\(model)\",\"store\":false,\"stream\":true}")
    }

    @Test func withoutTheEncryptedReasoningTheEffortStillGoes() throws {
        #expect(
            try Self.body(model: "gpt-5", effort: .low, includeEncrypted: false)
                == "{\(Self.hiInput),"
                + #""model":"gpt-5","reasoning":{"effort":"low","summary":"auto"},"store":false,"stream":true}"#)
    }
}
