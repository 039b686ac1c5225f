import ChatTestSupport
import Foundation
import Testing

/// A server's question (elicitation) and a prompt's missing argument, asked on a terminal (tmux),
/// with the `mcp` SDK server of `demoServerConfig`, in both eras.
@Suite(
    .enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"), .serialized, .timeLimit(.minutes(4)))
struct ServerQuestionsTerminalTests {
    @Test(arguments: ["2025-11-25", "2026-07-28"])
    func aFormIsAskedFieldByFieldThenSentAndAPromptAsksForItsArgument(era: String) async throws {
        let chat = ChatBinary()
        let config = try demoServerConfig(chat, pinned: era)
        let server = try LoopbackServer { request, index in
            if request.bodyText.contains("Please review") {
                return ServerStep.sse([ServerStep.chatChunk("Reviewed."), ServerStep.finishChunk()])
            }
            return request.bodyText.contains(#""role":"tool""#)
                ? ServerStep.sse([ServerStep.chatChunk("Booked."), ServerStep.finishChunk()])
                : toolCallAnswer("demo__reserve", arguments: #"{"title": "Dune"}"#, id: "call_\(index)")
        }
        defer { server.stop() }
        let session = try TmuxSession(
            program: ChatBinary.path,
            arguments: ["--config", config, "--base-url", server.baseURL, "-T", "demo", "--yes-tools", "demo", "-i"],
            environment: chat.environment.merging(["TERM": "xterm"]) { $1 })
        defer { session.kill() }
        #expect(await session.waitForScreen(timeout: 60) { $0.contains("tools: demo") }, "\(session.screen())")
        try session.type("reserve Dune")
        try session.send("Enter")
        // The server's words, then its one field, with its type.
        #expect(
            await session.waitForScreen(timeout: 60) { $0.contains("copies ›") }, "\(session.screen())")
        #expect(session.screen().contains("MCP server demo asks:\nHow many copies?"), "\(session.screen())")
        #expect(session.screen().contains("Copies (a whole number, required)"), "\(session.screen())")
        try session.type("many")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("a whole number, please") }, "\(session.screen())")
        try session.type("3")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("[a]ccept / [d]ecline / [c]ancel") }, "\(session.screen())")
        #expect(session.screen().contains("  copies: 3"), "\(session.screen())")
        try session.send("a")
        #expect(await session.waitForScreen(timeout: 60) { $0.contains("Booked.") }, "\(session.screen())")
        let tool = try #require(try sentMessages(try server.request(1)).last { $0["role"] as? String == "tool" })
        #expect(tool["content"] as? String == "Reserved 3 of Dune.")

        // A prompt's required argument not given is asked for.
        try session.type("/prompt demo.review_code")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("code ›") }, "\(session.screen())")
        try session.type("x = 1")
        try session.send("Enter")
        #expect(await session.waitForScreen(timeout: 60) { $0.contains("Reviewed.") }, "\(session.screen())")
        let sent = try sentMessages(try #require(server.requests.last))
        #expect(sent.last?["content"] as? String == "Please review this Python code:\n\nx = 1")
        try session.send("C-d")
        #expect(await session.exitStatus() == 0)
    }

    /// A page to open: its address and the server's reason shown; opened (`BROWSER`) only after a
    /// `y`, and `n` declines without opening it.
    @Test func aPageIsOpenedOnlyAfterAYes() async throws {
        let chat = ChatBinary()
        let config = try demoServerConfig(chat, pinned: "2025-11-25")
        let opened = chat.home + "/opened"
        let browser = chat.home + "/browser.sh"
        try "#!/bin/sh\necho \"$1\" >> '\(opened)'\n".write(toFile: browser, atomically: true, encoding: .utf8)
        chmod(browser, 0o755)
        // Each question: a call of connect, then the answer to its result.
        let server = try LoopbackServer { _, index in
            index % 2 == 1
                ? ServerStep.sse([ServerStep.chatChunk("Over."), ServerStep.finishChunk()])
                : toolCallAnswer("demo__connect", arguments: "{}", id: "call_\(index)")
        }
        defer { server.stop() }
        let session = try TmuxSession(
            program: ChatBinary.path,
            arguments: ["--config", config, "--base-url", server.baseURL, "-T", "demo", "--yes-tools", "demo", "-i"],
            environment: chat.environment.merging(["TERM": "xterm", "BROWSER": browser]) { $1 })
        defer { session.kill() }
        #expect(await session.waitForScreen(timeout: 60) { $0.contains("tools: demo") }, "\(session.screen())")
        try session.type("connect")
        try session.send("Enter")
        #expect(
            await session.waitForScreen(timeout: 60) { $0.contains("Open it in the browser? [y]es / [n]o") },
            "\(session.screen())")
        let screen = session.screen()
        #expect(screen.contains("MCP server demo asks you to open a page:\nSign in to Example to go on."), "\(screen)")
        #expect(screen.contains("  https://example.test/connect?session=1"), "\(screen)")
        // Nothing is opened before the answer.
        #expect(!FileManager.default.fileExists(atPath: opened))
        try session.send("y")
        #expect(await session.waitForScreen(timeout: 60) { $0.contains("Over.") }, "\(session.screen())")
        #expect(try String(contentsOfFile: opened, encoding: .utf8) == "https://example.test/connect?session=1\n")
        let accepted = try sentMessages(try server.request(1)).last { $0["role"] as? String == "tool" }
        #expect(accepted?["content"] as? String == "page: accept")

        try session.type("connect again")
        try session.send("Enter")
        #expect(
            await session.waitForScreen(timeout: 60) {
                $0.components(separatedBy: "Open it in the browser?").count == 3
            }, "\(session.screen())")
        try session.send("n")
        #expect(
            await session.waitForScreen(timeout: 60) { $0.components(separatedBy: "Over.").count == 3 },
            "\(session.screen())")
        let declined = try sentMessages(try #require(server.requests.last)).last { $0["role"] as? String == "tool" }
        #expect(declined?["content"] as? String == "page: decline")
        // Opened once: the `n` opened nothing.
        #expect(try String(contentsOfFile: opened, encoding: .utf8) == "https://example.test/connect?session=1\n")
        try session.send("C-d")
        #expect(await session.exitStatus() == 0)
    }
}
