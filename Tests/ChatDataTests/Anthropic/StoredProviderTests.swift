import ChatDomain
import Testing

@testable import ChatHistory

/// The history's `settings` column records the provider that answered when it is not the default
/// one, and nothing more for OpenAI's (the bytes earlier releases wrote).
@Suite struct StoredProviderTests {
    @Test func anotherProviderIsWrittenAndReadBack() throws {
        let settings = ChatSettings(model: "m", sampling: [.maxTokens: .wholeNumber(7)], provider: "anthropic")
        let bytes = try #require(StoredSettingsDTO(settings).jsonBytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"max_tokens":7,"provider":"anthropic"}"#)
        let read = try #require(StoredSettingsDTO(jsonBytes: bytes))
        #expect(read.applied(to: ChatSettings(model: "m")) == settings)
    }

    @Test func openAIsIsNotWritten() throws {
        let bytes = try #require(
            StoredSettingsDTO(ChatSettings(model: "m", sampling: [.maxTokens: .wholeNumber(7)])).jsonBytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"max_tokens":7}"#)
    }
}
