import ChatDomain
import Testing

/// The one rule for `/load`, `/resume`, `-c` and `--conversation`.
@Suite("Conversation switch")
struct ConversationSwitchTests {
    private let configured = ChatSettings(
        model: "configured-model", sampling: [.temperature: .number(0.7), .maxTokens: .wholeNumber(100)], stream: false,
        maxContextTokens: 4000)

    private func stored(_ settings: ChatSettings, system: String? = "Stored system.") -> Conversation {
        Conversation(
            systemPrompt: system, settings: settings, messages: [ChatMessage(role: .user, content: "Q")],
            id: "k3v9x2qa",
            title: "A title")
    }

    @Test func theConversationsOwnModelSystemPromptAndSettingsApply() {
        let rule = ConversationSwitch(configured: configured)
        let adopted = rule.adopt(
            stored(
                ChatSettings(
                    model: "stored-model", sampling: [.temperature: .number(0.1), .maxTokens: .wholeNumber(50)])))

        #expect(adopted.settings.model == "stored-model")
        #expect(adopted.settings.sampling[.temperature] == .number(0.1))
        #expect(adopted.settings.sampling[.maxTokens] == .wholeNumber(50))
        #expect(adopted.systemPrompt == "Stored system.")
        #expect(adopted.id == "k3v9x2qa")
        #expect(adopted.title == "A title")
        #expect(adopted.messages.map(\.content) == ["Q"])
    }

    @Test func whatTheConversationDoesNotSetComesFromWhatIsConfigured() {
        let adopted = ConversationSwitch(configured: configured).adopt(stored(ChatSettings(model: "stored-model")))

        #expect(adopted.settings.model == "stored-model")
        #expect(adopted.settings.sampling[.temperature] == .number(0.7))
        #expect(adopted.settings.sampling[.maxTokens] == .wholeNumber(100))
        let unnamed = ConversationSwitch(configured: configured).adopt(stored(ChatSettings(model: "")))
        #expect(unnamed.settings.model == "configured-model")
    }

    @Test func optionsGivenOnThisRunWin() {
        let rule = ConversationSwitch(
            configured: configured,
            given: ChatSettings(model: "flag-model", sampling: [.temperature: .number(0), .topP: .number(0.9)]),
            givenSystemPrompt: "Flag system.")
        let adopted = rule.adopt(
            stored(
                ChatSettings(
                    model: "stored-model",
                    sampling: [.temperature: .number(0.1), .maxTokens: .wholeNumber(50), .topP: .number(0.2)])))

        #expect(adopted.settings.model == "flag-model")
        #expect(adopted.settings.sampling[.temperature] == .number(0))
        #expect(adopted.settings.sampling[.topP] == .number(0.9))
        // Not given on the command line: the conversation's own.
        #expect(adopted.settings.sampling[.maxTokens] == .wholeNumber(50))
        #expect(adopted.systemPrompt == "Flag system.")
    }

    @Test func howAnswersAreFetchedIsThisRunsNeverTheConversations() {
        let adopted = ConversationSwitch(configured: configured).adopt(
            stored(ChatSettings(model: "m", stream: true, maxContextTokens: 10)))

        #expect(adopted.settings.stream == false)
        #expect(adopted.settings.maxContextTokens == 4000)
    }

    @Test func noSystemPromptOfItsOwnStaysNone() {
        let adopted = ConversationSwitch(configured: configured).adopt(stored(ChatSettings(model: "m"), system: nil))
        #expect(adopted.systemPrompt == nil)
    }
}
