import ChatDomain
import Testing

@testable import ChatPresentation

/// The parts of `/tools`, `/prompt` and their kin that need no server: the switch over the
/// configured servers, Tab after `/tools` and `/prompt`, and how a prompt's line is read and its
/// messages become one question.
struct ToolServerCommandsTests {
    /// A completion source whose servers offer two prompts.
    private struct PromptSource: CompletionSource {
        func modelNames() -> [String] { [] }
        func conversations() -> [(id: String, title: String)] { [] }
        func paths(completing prefix: String) -> [String] { [] }
        func toolPromptNames() -> [String] { ["demo.review_code", "demo.describe_pixel", "git.commit"] }
    }

    @Test func aServerOffAtTheStartIsTurnedOnAndOffAndOnBringsBackOnlyThoseUsed() {
        let tools = ToolSwitch(servers: ["time", "git", "web"], on: ["time"])
        #expect(tools.enabledServers == ["time"])
        #expect(tools.set("git", on: true) == false)
        #expect(tools.enabledServers == ["time", "git"])
        #expect(tools.set("git", on: true) == true)
        #expect(tools.set("nope", on: true) == nil)
        tools.setAll(false)
        #expect(tools.enabledServers.isEmpty)
        // `/tools on` brings back the servers used this run, never one never turned on.
        tools.setAll(true)
        #expect(tools.enabledServers == ["time", "git"])
        #expect(!tools.isOn("web"))
    }

    @Test func tabCompletesServersAfterToolsOffAndPromptsAfterPrompt() {
        let completer = REPLCompleter(source: PromptSource(), toolServers: ["time", "git"])
        #expect(completer.completions(for: "/tools off ") == ["time", "git"])
        #expect(completer.completions(for: "/tools off g") == ["git"])
        #expect(completer.completions(for: "/tools time ") == [])
        #expect(completer.completions(for: "/prompt demo.") == ["demo.review_code", "demo.describe_pixel"])
        #expect(completer.completions(for: "/prompt demo.review_code ") == [])
        #expect(completer.completions(for: "/resource g") == ["git"])
        #expect(completer.completions(for: "/resources t") == ["time"])
    }

    @Test func aPromptLineIsReadAsWordsQuotesKeptWhole() {
        #expect(
            PromptCommand.words(#"demo.review code="print(1) + 2" language='Swift 6'"#) == [
                "demo.review", "code=print(1) + 2", "language=Swift 6",
            ])
        #expect(PromptCommand.words(#"demo.x code="open"#) == nil)
        #expect(PromptCommand.words("  a   b ") == ["a", "b"])
        #expect(PromptCommand.words(#"a code="""#) == ["a", "code="])
    }

    @Test func theServerOfAPromptIsTheLongestConfiguredNameBeforeADot() {
        #expect(PromptCommand.split("my.server.greet", servers: ["my", "my.server"])! == ("my.server", "greet"))
        #expect(PromptCommand.split("demo.review_code", servers: [])! == ("demo", "review_code"))
        #expect(PromptCommand.split("demo", servers: ["demo"]) == nil)
        #expect(PromptCommand.split("demo.", servers: ["demo"]) == nil)
    }

    @Test func aPromptsMessagesBecomeOneQuestionWithWhatIsAttached() {
        let image = ImageAttachment(path: "pixel", mimeType: "image/png", byteCount: 3, sha256: "ab", data: [1, 2, 3])
        let user = [
            ChatMessage(role: .user, content: "Look:"), ChatMessage(role: .user, content: "", images: [image]),
        ]
        let attached = Attachments(texts: [TextAttachment(path: "notes.txt", text: "n")])
        let question = PromptCommand.question(user, attached: attached)
        #expect(question.role == .user)
        #expect(question.content == "Look:\n\n" + TextAttachment(path: "notes.txt", text: "n").fencedBlock)
        #expect(question.images == [image])
        // The assistant's words in a prompt are said to be the assistant's.
        let dialogue = [
            ChatMessage(role: .user, content: "Hi"), ChatMessage(role: .assistant, content: "Hello"),
            ChatMessage(role: .user, content: "Go on"),
        ]
        #expect(
            PromptCommand.question(dialogue, attached: Attachments()).content
                == "User: Hi\n\nAssistant: Hello\n\nUser: Go on")
    }
}
