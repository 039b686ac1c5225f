import ChatTestSupport
import Foundation
import Testing

/// Rendering in a real terminal (tmux): what `capture-pane` shows after an answer streamed in
/// small pieces is what it shows after the same answer sent whole — no duplicated, torn or
/// ghost lines — with CJK, emoji, a long unbroken word, a table and a code block; a resize
/// mid-answer leaves what came before intact; Ctrl-C leaves a clean prompt.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"))
struct RenderTerminalTests {
    static let answer = """
        ## Rendering check

        Some **bold**, *italic* and `code` text that is long enough to wrap at forty columns, \
        with a [link](https://example.com/page) in it.
        中文文本没有空格，所以要在字符之间换行；日本語のテキストも同じです。表情符号 😀 和 🇯🇵 也在这里。
        A verylongunbrokenwordthatcannotpossiblyfitonasinglerowofafortycolumnterminal ends here.

        | Language | Year | Typing |
        |:---------|-----:|--------|
        | Swift | 2014 | static, *inferred* |
        | Python | 1991 | dynamic |

        ```python
        def double(x):
            return x * 2  # a comment
        ```

        - one
          - nested item with enough words to wrap onto a second row
        Done.
        """

    /// Pieces of `size` characters.
    static func pieces(_ text: String, size: Int) -> [String] {
        let characters = Array(text)
        return stride(from: 0, to: characters.count, by: size).map {
            String(characters[$0..<min($0 + size, characters.count)])
        }
    }

    private func runInTerminal(
        pieces: [String], pause: Double, width: Int, during: ((TmuxSession) async throws -> Void)? = nil
    )
        async throws -> (lines: [String], joined: [String])
    {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse(pieces.map(ServerStep.chatChunk) + [ServerStep.finishChunk()], pause: pause)
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--no-history", "--base-url", server.baseURL, "check"],
            environment: chat.environment.merging(["TERM": "xterm-256color"]) { $1 }, width: width)
        defer { session.kill() }
        try await during?(session)
        #expect(await session.exitStatus(timeout: 30) == 0, "screen:\n\(session.screen())")
        let lines = session.history().filter { !$0.hasPrefix("exit status") }
        let joined = session.history(joined: true).filter { !$0.hasPrefix("exit status") }
        return (lines, joined)
    }

    @Test(arguments: [40, 100])
    func aStreamedAnswerShowsWhatTheWholeAnswerShows(width: Int) async throws {
        let whole = try await runInTerminal(pieces: [Self.answer], pause: 0, width: width)
        let streamed = try await runInTerminal(pieces: Self.pieces(Self.answer, size: 3), pause: 0.002, width: width)
        #expect(streamed.lines == whole.lines, "streamed:\n\(streamed.lines.joined(separator: "\n"))")
        #expect(whole.lines.contains { $0.hasPrefix("Language") && $0.contains("│ Year │ Typing") })
        #expect(whole.lines.contains("def double(x):"))
        #expect(whole.lines.contains { $0.contains("中文") })
        // Text wrapped by chat: no row of prose reaches the last column.
        let prose = whole.lines.filter { !$0.contains("verylong") }
        #expect(prose.allSatisfy { $0.unicodeScalars.count < width })
    }

    @Test func aResizeMidAnswerLeavesEarlierOutputIntact() async throws {
        let reference = try await runInTerminal(pieces: [Self.answer], pause: 0, width: 100)
        var before: [String] = []
        let resized = try await runInTerminal(pieces: Self.pieces(Self.answer, size: 2), pause: 0.01, width: 100) {
            session in
            #expect(await session.waitForScreen { $0.contains("wrap at forty") })
            before = session.history(joined: true)
            try session.resize(width: 40)
        }
        // What was written before the resize is still there, in order, unchanged (tmux rewraps
        // it to the new width: joined, the lines are the ones written).
        let kept = Array(before.dropLast())
        #expect(Array(resized.joined.prefix(kept.count)) == kept)
        #expect(Array(reference.lines.prefix(kept.count)) == kept)
        // What came after is laid out for 40 columns, and nothing is written twice.
        // The row being written when the width changed is finished as begun (the terminal wraps
        // it); what came after is laid out for 40 columns, and nothing is written twice.
        let after = resized.joined.dropFirst(kept.count + 1)
        #expect(after.filter { !$0.contains("verylong") }.allSatisfy { $0.unicodeScalars.count < 40 })
        #expect(resized.joined.filter { $0.contains("Done.") }.count == 1)
        #expect(resized.joined.filter { $0 == "def double(x):" }.count == 1)
    }

    @Test func ctrlCMidAnswerLeavesACleanPromptOnItsOwnLine() async throws {
        let server = try LoopbackServer { _, index in
            if index == 0 {
                return ServerStep.sse(
                    [ServerStep.chatChunk("Start **bold and `code")]
                        + (1...200).map { ServerStep.chatChunk(" word\($0)") },
                    pause: 0.05)
            }
            return ServerStep.sse([ServerStep.chatChunk("second"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--no-history", "--base-url", server.baseURL],
            environment: chat.environment.merging(["TERM": "xterm-256color"]) { $1 }, width: 60)
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("0 turns") })
        try session.type("go")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("word3") })
        try session.send("C-c")
        #expect(await session.waitForScreen { $0.contains("1 turn") })
        let screen = session.history()
        let prompt = try #require(screen.last)
        #expect(prompt.hasPrefix("gpt-4o-mini · 1 turn"), "screen:\n\(screen.joined(separator: "\n"))")
        #expect(screen.contains { $0.hasPrefix("[interrupted") })
        // No style is left on: the prompt and what is typed after it look as they did before.
        try session.type("x")
        #expect(await session.waitForScreen { $0.contains("› x") })
        let styled = session.screenWithStyles().split(separator: "\n").map(String.init)
        let first = try #require(styled.first { $0.contains("0 turns") })
        var last = try #require(styled.last { $0.contains("1 turn") })
        // The size estimate depends on where Ctrl-C landed.
        if let start = last.range(of: " · ~"),
            let end = last.range(of: " tokens", range: start.upperBound..<last.endIndex)
        {
            last.removeSubrange(start.lowerBound..<end.upperBound)
        }
        let expected = first.replacingOccurrences(of: "0 turns", with: "1 turn").replacingOccurrences(
            of: " go", with: " x")
        #expect(last == expected)
    }

    /// `/copy 1` reaches a real terminal's clipboard: tmux with `set-clipboard on` takes OSC 52.
    @Test func copyPutsACodeBlockOnTheTerminalsClipboard() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([
                ServerStep.chatChunk("Like this:\n\n```bash\nfor f in *.txt; do\n  echo \"$f\"\ndone\n```\n"),
                ServerStep.finishChunk(),
            ])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--no-history", "--base-url", server.baseURL],
            environment: chat.environment.merging(["TERM": "xterm-256color"]) { $1 }, width: 80)
        defer { session.kill() }
        try session.acceptClipboard()
        #expect(await session.waitForScreen { $0.contains("0 turns") })
        try session.type("a loop")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("1 turn") })
        try session.type("/copy 1")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("copied code block 1 (bash, 3 lines) through OSC 52") })
        #expect(session.clipboard() == "for f in *.txt; do\n  echo \"$f\"\ndone\n")
    }
}
