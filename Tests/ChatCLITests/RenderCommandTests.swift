import ChatTestSupport
import Foundation
import Testing

/// Rendering from the command line, with stdout a pipe: the text byte for byte unless
/// `--render always`; `--code`; bad values.
@Suite struct RenderCommandTests {
    private let markdown = [
        "# Loop\n\nHere is **the** loop:\n\n```bash\nfor f in *.txt; do\n", "  echo \"$f\"\ndone\n```\n",
        "\nAnd in Python:\n\n```python\nprint(1)\n```\nDone \u{1B}[31m.\n",
    ]

    private func answering(_ pieces: [String]) throws -> LoopbackServer {
        try LoopbackServer { _, _ in
            ServerStep.sse(pieces.map(ServerStep.chatChunk) + [ServerStep.finishChunk()])
        }
    }

    @Test func aPipeGetsTheTextByteForByte() async throws {
        let server = try answering(markdown)
        defer { server.stop() }
        let result = try await ChatBinary().run(["--base-url", server.baseURL, "loop"])
        #expect(result.status == 0)
        #expect(result.stdout == markdown.joined())
        let forced = try await ChatBinary().run(["--render", "never", "--base-url", server.baseURL, "loop"])
        #expect(forced.stdout == markdown.joined())
    }

    @Test func renderAlwaysRendersToAPipeWithoutEscapes() async throws {
        let server = try answering(markdown)
        defer { server.stop() }
        let chat = ChatBinary()
        let result = try await chat.run(["--render", "always", "--base-url", server.baseURL, "loop"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("Loop\n\nHere is the loop:\n\n─── bash\nfor f in *.txt; do\n"))
        // Control characters in the model's text are shown, never sent as commands.
        #expect(result.stdout.contains("Done ^[[31m."))
        #expect(!result.stdout.contains("\u{1B}"))
        // The config key does the same.
        let config = try chat.writeConfig(#"{"render": "always"}"#)
        let configured = try await chat.run(["--config", config, "--base-url", server.baseURL, "loop"])
        #expect(configured.stdout == result.stdout)
    }

    @Test func codePrintsOnlyTheCodeOfTheCodeBlocks() async throws {
        let server = try answering(markdown)
        defer { server.stop() }
        let result = try await ChatBinary().run(["--code", "--base-url", server.baseURL, "loop"])
        #expect(result.status == 0)
        #expect(result.stdout == "for f in *.txt; do\n  echo \"$f\"\ndone\nprint(1)\n")
        // stderr is not a terminal: the rest of the answer goes nowhere.
        #expect(result.stderr == "")
    }

    @Test func codeWithNoCodeBlockSaysSoAndFails() async throws {
        let server = try answering(["Just words, no code."])
        defer { server.stop() }
        let result = try await ChatBinary().run(["--code", "--base-url", server.baseURL, "loop"])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr == "chat: the answer has no code block; nothing was written to stdout\n")
    }

    @Test(arguments: [
        (["--render", "sometimes", "hi"], #"chat: error: --render expects auto, always or never, got "sometimes""#),
        (["--raw", "--render", "always", "hi"], "chat: error: --raw is --render never; give one of them"),
        (["--code", "-i"], "chat: error: --code prints one answer's code; it cannot be used with -i"),
    ])
    func badRenderOptionsAreOneLineAndExit2(arguments: [String], message: String) async throws {
        let result = try await ChatBinary().run(["--base-url", "http://127.0.0.1:9/v1"] + arguments)
        #expect(result.status == 2)
        #expect(result.stderr == message + "\n")
    }

    @Test func aBadRenderValueInTheConfigNamesTheFile() async throws {
        let chat = ChatBinary()
        let config = try chat.writeConfig(#"{"render": "sometimes"}"#)
        let result = try await chat.run(["--config", config, "--base-url", "http://127.0.0.1:9/v1", "hi"])
        #expect(result.status == 2)
        // The words are named as the flag's message names them.
        #expect(result.stderr.contains(#"render: expected auto, always or never, got "sometimes""#))
    }
}
