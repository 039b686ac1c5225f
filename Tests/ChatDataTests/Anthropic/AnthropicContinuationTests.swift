import ChatDomain
import Testing

@testable import ChatCatalogue
@testable import ChatHTTP
@testable import ChatProviders

/// When the Anthropic provider continues a broken answer with a prefill, and when it does not:
/// the model table (`PrefillTable`), thinking, a schema, and a model that refused one this run.
@Suite struct AnthropicContinuationTests {
    static func request(_ model: String, sampling: SamplingValues = [:], schema: ResponseSchema? = nil) -> ChatRequest {
        ChatRequest(
            messages: [ChatMessage(role: .user, content: "question")],
            settings: ChatSettings(model: model, sampling: sampling, responseSchema: schema))
    }

    @Test func aModelThatTakesAPrefillGetsTheTextAsTheAssistantsLastMessage() throws {
        let provider = AnthropicProvider()
        let asked = Self.request("claude-haiku-4-5")
        let continued = try #require(provider.continuation(of: asked, after: "The answer is", variant: .budget))
        #expect(continued.messages.count == 2)
        #expect(continued.messages.last == ChatMessage(role: .assistant, content: "The answer is"))
        #expect(continued.settings == asked.settings)
        // On the wire: the last message is the assistant's, its text as given.
        let body = try #require(provider.chatRequest(for: continued, variant: .budget).body)
        #expect(String(decoding: body, as: UTF8.self).contains(#""text":"The answer is""#))
    }

    @Test(arguments: ["claude-sonnet-4-6", "claude-opus-4-6", "claude-opus-4-7", "claude-sonnet-5", "claude-fable-5"])
    func aModelTheTableSaysRefusesOneIsNotAsked(model: String) {
        #expect(PrefillTable.takesPrefill(model) == false)
        #expect(AnthropicProvider().continuation(of: Self.request(model), after: "text", variant: .adaptive) == nil)
    }

    @Test func withThinkingOrASchemaThereIsNoContinuation() {
        let provider = AnthropicProvider()
        let thinking = Self.request("claude-haiku-4-5", sampling: [.effort: .effort(.high)])
        #expect(provider.continuation(of: thinking, after: "text", variant: .budget) == nil)
        let budget = AnthropicProvider(thinkingBudget: 2048)
        #expect(budget.continuation(of: Self.request("claude-haiku-4-5"), after: "text", variant: .budget) == nil)
        let schema = Self.request("claude-haiku-4-5", schema: ResponseSchema(schema: .object([:])))
        #expect(provider.continuation(of: schema, after: "text", variant: .budget) == nil)
        // An effort of none asks for no thinking: the text can be continued.
        let none = Self.request("claude-haiku-4-5", sampling: [.effort: .effort(.none)])
        #expect(provider.continuation(of: none, after: "text", variant: .budget) != nil)
    }

    @Test func aModelTheTableDoesNotKnowIsTriedUntilItRefuses() {
        let provider = AnthropicProvider()
        let request = Self.request("claude-test-unknown")
        #expect(PrefillTable.takesPrefill("claude-test-unknown") == nil)
        #expect(provider.continuation(of: request, after: "text", variant: .adaptive) != nil)
        // Another 400 is not the refusal.
        #expect(
            !provider.refusesContinuation(
                .badRequest(status: 400, message: "max_tokens: too large"), detail: nil, model: "claude-test-unknown"))
        #expect(provider.continuation(of: request, after: "text", variant: .adaptive) != nil)
        let refusal =
            "This model does not support assistant message prefill. The conversation must end with a user message."
        #expect(
            provider.refusesContinuation(
                .badRequest(status: 400, message: refusal), detail: ServerErrorDetail(message: refusal),
                model: "claude-test-unknown"))
        #expect(provider.continuation(of: request, after: "text", variant: .adaptive) == nil)
    }
}
