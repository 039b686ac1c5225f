import ChatDomain
import ChatTestSupport
import Testing

@testable import ChatPresentation
@testable import ChatRendering

/// `/copy` and the terminal's clipboard: what is written to the terminal, no real clipboard.
@Suite struct CopyCommandTests {
    private let answer =
        "Two ways:\n\n```bash\nls *.txt\n```\n\nor\n\n~~~python\nimport glob\nprint(glob.glob('*.txt'))\n~~~\n"

    /// Runs the REPL over `lines` with one answer, `/copy` writing OSC 52 to `terminal`.
    private func session(_ lines: [String], environment: [String: String] = [:]) async -> (
        terminal: CapturingSink, notes: CapturingSink
    ) {
        let terminal = CapturingSink(isTerminal: true)
        let notes = CapturingSink()
        let parts = REPL.Parts(
            useCase: GPTChatUseCase(
                repository: StubGPTRepository([.answer([.text(answer), .finished(reason: "stop")])])),
            reader: ScriptedLineReader(lines: lines), output: CapturingSink(), notes: notes, outputStyle: .plain,
            notesStyle: .plain, archive: MemoryConversationArchive(), editor: nil, control: SessionControl(),
            conversationSwitch: ConversationSwitch(
                configured: ChatSettings(model: "m"), given: ChatSettings(model: "")),
            clipboard: TerminalClipboard(terminal: terminal, environment: environment))
        _ = await REPL(parts: parts, conversation: Conversation(settings: ChatSettings(model: "m"))).run()
        return (terminal, notes)
    }

    @Test func copyNCopiesThatCodeBlockThroughOSC52AndSaysWhat() async {
        let (terminal, notes) = await session(["list text files", "/copy 2"])
        let code = "import glob\nprint(glob.glob('*.txt'))\n"
        #expect(terminal.text == "\u{1B}]52;c;\(Base64.encode(Array(code.utf8)))\u{07}")
        #expect(notes.text == "copied code block 2 (python, 2 lines) through OSC 52 (your terminal's clipboard)\n")
    }

    @Test func copyAloneCopiesTheWholeAnswerAndMentionsTmux() async {
        let (terminal, notes) = await session(
            ["list text files", "/copy"], environment: ["TMUX": "/tmp/tmux-0/default"])
        #expect(terminal.text == "\u{1B}]52;c;\(Base64.encode(Array(answer.utf8)))\u{07}")
        #expect(notes.writes.first == "copied the last answer (12 lines) through OSC 52 (your terminal's clipboard)\n")
        #expect(notes.writes.last == "inside tmux this reaches the clipboard only with: tmux set -g set-clipboard on\n")
    }

    @Test(arguments: [
        (["hi", "/copy 9"], "chat: error: the last answer has 2 code blocks: /copy 1 to /copy 2\n"),
        (
            ["hi", "/copy x"],
            "chat: error: /copy takes a code block's number (/copy 1), or nothing for the whole answer\n"
        ),
        (["/copy"], "chat: error: nothing to copy yet: there is no answer in this conversation\n"),
    ])
    func aBadCopyIsOneClearLine(lines: [String], message: String) async {
        let (terminal, notes) = await session(lines)
        #expect(terminal.text.isEmpty)
        #expect(notes.text == message)
    }

    @Test func base64IsStandard() {
        #expect(Base64.encode(Array("".utf8)) == "")
        #expect(Base64.encode(Array("f".utf8)) == "Zg==")
        #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
        #expect(Base64.encode(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Base64.encode([0xFF, 0xFE, 0x00]) == "//4A")
    }

    @Test func codeBlocksAreFoundAsTheRendererDrawsThem() {
        let blocks = CodeBlock.all(in: answer + "1. step\n   ```sh\n   echo hi\n   ```\n```\nunclosed")
        #expect(blocks.map(\.language) == ["bash", "python", "sh", ""])
        #expect(
            blocks.map(\.code) == ["ls *.txt\n", "import glob\nprint(glob.glob('*.txt'))\n", "echo hi\n", "unclosed\n"])
    }

    /// The renderer draws a fence inside a block quote as a code block: `/copy` and `--code`
    /// count it too, without the quote's markers.
    @Test func aCodeBlockInABlockQuoteIsFoundWithoutItsMarkers() {
        let blocks = CodeBlock.all(in: "> ```py\n> x = 1\n>   y = 2\n> ```\n```sh\necho hi\n```\n")
        #expect(blocks.map(\.language) == ["py", "sh"])
        #expect(blocks.map(\.code) == ["x = 1\n  y = 2\n", "echo hi\n"])
    }
}
