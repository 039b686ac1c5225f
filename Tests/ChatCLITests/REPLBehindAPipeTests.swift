import ChatTestSupport
import Foundation
import Testing

/// The REPL behind a pipe: `chat | tee session.log` and `chat > file`, with the keyboard on a
/// real terminal (tmux). The prompt, the line editor and its escape codes go to the terminal;
/// the file gets only the answers.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"))
struct REPLBehindAPipeTests {
    private func answering() throws -> LoopbackServer {
        try LoopbackServer { _, index in
            ServerStep.sse([ServerStep.chatChunk("answer \(index + 1)"), ServerStep.finishChunk()])
        }
    }

    @Test(arguments: ["| tee", ">"])
    func thePromptGoesToTheTerminalAndTheFileGetsOnlyTheAnswers(redirect: String) async throws {
        let server = try answering()
        defer { server.stop() }
        let chat = ChatBinary()
        let file = chat.home + "/session.log"
        // An "editor" that draws on its stdout and saves a message.
        let editor = chat.home + "/editor.sh"
        try "#!/bin/sh\necho drawn-by-the-editor\nprintf 'from the editor' > \"$1\"\n".write(
            toFile: editor, atomically: true, encoding: .utf8)
        chmod(editor, 0o755)
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--base-url", server.baseURL],
            environment: chat.environment.merging(["TERM": "xterm", "EDITOR": editor]) { $1 },
            then: "\(redirect) '\(file)'")
        defer { session.kill() }

        // The prompt is on the screen although stdout is not the terminal.
        #expect(await session.waitForScreen { $0.contains("0 turns ›") }, "screen:\n\(session.screen())")
        try session.type("first question")
        #expect(await session.waitForScreen { $0.contains("› first question") })
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("1 turn ·") }, "screen:\n\(session.screen())")
        // Line editing works: Up recalls the line, which is edited and sent.
        try session.send("Up")
        try session.type(" again")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("2 turns ·") }, "screen:\n\(session.screen())")
        // $EDITOR draws on the terminal too.
        try session.type("/edit")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("3 turns ·") }, "screen:\n\(session.screen())")
        #expect(session.screen().contains("drawn-by-the-editor"))
        try session.send("C-d")
        #expect(await session.exitStatus() == 0, "screen:\n\(session.screen())")

        let saved = try String(contentsOfFile: file, encoding: .utf8)
        #expect(saved == "answer 1\nanswer 2\nanswer 3\n")
        #expect(server.requests.count == 3)
        #expect(server.requests.dropFirst().first?.bodyText.contains("first question again") == true)
        #expect(server.requests.last?.bodyText.contains("from the editor") == true)
        if redirect == "| tee" {
            // What tee passes on shows on the screen too.
            #expect(session.screen().contains("answer 2"))
        }
    }
}
