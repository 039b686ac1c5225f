import ChatTestSupport
import Foundation
import Testing

/// Roles end to end: what reaches the server for a built-in role, a configured one, a template
/// filled with piped input, a role's profile; `--list-roles`.
@Suite(.timeLimit(.minutes(1)))
struct RolesCommandTests {
    private func answering() throws -> LoopbackServer {
        try LoopbackServer { _, _ in ServerStep.sse([ServerStep.chatChunk("ok"), ServerStep.finishChunk()]) }
    }

    private func body(_ server: LoopbackServer, _ index: Int) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(try server.request(index).body)) as? [String: Any])
    }

    private func messages(_ server: LoopbackServer, _ index: Int) throws -> [String] {
        let list = try #require(try body(server, index)["messages"] as? [[String: Any]])
        return list.map { "\($0["role"] as? String ?? ""): \($0["content"] as? String ?? "")" }
    }

    @Test func aBuiltInRoleSendsItsSystemPromptWithTheShellAndOSFilledIn() async throws {
        let server = try answering()
        defer { server.stop() }
        let chat = ChatBinary(environment: ["SHELL": "/usr/bin/fish"])
        let code = try await chat.run(["--base-url", server.baseURL, "-r", "code", "a fizzbuzz in awk"])
        #expect(code.status == 0, "\(code.stderr)")
        let sent = try messages(server, 0)
        #expect(sent.count == 2)
        #expect(sent[0].hasPrefix("system: Answer with code only"))
        #expect(sent[1] == "user: a fizzbuzz in awk")

        _ = try await chat.run(["--base-url", server.baseURL, "--role", "shell", "list big files"])
        let shell = try messages(server, 1)[0]
        #expect(shell.contains("one command for the fish shell on "))
        #expect(!shell.contains("{{"))
        // -s wins over the role's prompt.
        _ = try await chat.run(["--base-url", server.baseURL, "-r", "explain", "-s", "mine", "x"])
        #expect(try messages(server, 2)[0] == "system: mine")
    }

    @Test func aTemplateRoleTakesThePipedInputAndItsProfile() async throws {
        let server = try answering()
        defer { server.stop() }
        let chat = ChatBinary()
        let config = try chat.writeConfig(
            """
            {
              "model": "top-model", "system_prompt": "top prompt",
              "profiles": {"loop": {"base_url": "\(server.baseURL)", "model": "loop-model", "temperature": 0.9}},
              "roles": {
                "review": {"prompt": "Review this diff:\\n```diff\\n{{input}}\\n```", "profile": "loop", "temperature": 0.1},
                "terse": {"prompt": "Be terse.", "max_tokens": 20}
              }
            }
            """)
        // `git diff | chat -r review`
        let review = try await chat.run(["--config", config, "-r", "review"], input: "-old\n+new\n")
        #expect(review.status == 0, "\(review.stderr)")
        #expect(try messages(server, 0) == ["system: top prompt", "user: Review this diff:\n```diff\n-old\n+new\n```"])
        let sent = try body(server, 0)
        #expect(sent["model"] as? String == "loop-model")
        #expect(sent["temperature"] as? Double == 0.1)
        #expect(sent["top_p"] == nil)
        #expect(sent["max_tokens"] == nil)

        // Words and piped text both go in: the words first, as without a role.
        _ = try await chat.run(["--config", config, "-r", "review", "focus", "on", "naming"], input: "+x\n")
        #expect(try messages(server, 1).last == "user: Review this diff:\n```diff\nfocus on naming\n\n+x\n```")

        // Nothing to fill it with is nothing to send.
        let empty = try await chat.run(["--config", config, "-r", "review"], input: "")
        #expect(empty.status == 2)
        #expect(empty.stderr.hasPrefix("chat: error: nothing to send"))

        // A continued conversation takes the role given on this run.
        _ = try await chat.run(["--config", config, "--profile", "loop", "-c", "-r", "terse", "and more?"])
        #expect(try messages(server, 2).first == "system: Be terse.")
        #expect(try body(server, 2)["max_tokens"] as? Int == 20)
        #expect(server.requests.count == 3)
    }

    @Test func listRolesAndItsErrors() async throws {
        let chat = ChatBinary()
        let list = try await chat.run(["--list-roles"])
        #expect(list.status == 0)
        #expect(list.stdout == "code\nexplain\nshell\n")
        let config = try chat.writeConfig(#"{"roles": {"review": {"prompt": "Review {{input}}"}}}"#)
        #expect(try await chat.run(["--config", config, "--list-roles"]).stdout == "code\nexplain\nreview\nshell\n")
        let values = try await chat.run(["--config", config, "--list-roles"])
        #expect(values.stderr == "")

        let unknown = try await chat.run(["--base-url", "http://127.0.0.1:9/v1", "-r", "nope", "hi"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "chat: error: no role named \"nope\" (--role); known roles: code, explain, shell\n")
        let bad = try chat.writeConfig(#"{"roles": {"x": {"model": "m"}}}"#, name: "bad.json")
        let badList = try await chat.run(["--config", bad, "--list-roles"])
        #expect(badList.status == 2)
        #expect(badList.stderr.contains("roles.x: a role needs a prompt"))
        let stray = try await chat.run(["--list-roles", "x"])
        #expect(stray.status == 2)
    }
}

/// On a terminal: `--list-roles` is a table, and `/role` with Tab in the REPL.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"), .timeLimit(.minutes(1)))
struct RolesTerminalTests {
    @Test func listRolesIsATableAndRoleTakesARoleInTheREPL() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("ok"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let environment = chat.environment.merging(["TERM": "xterm"]) { $1 }
        let table = try TmuxSession(program: ChatBinary.path, arguments: ["--list-roles"], environment: environment)
        defer { table.kill() }
        #expect(await table.exitStatus() == 0)
        #expect(table.screen().contains("code     Answer with code only"), "\(table.screen())")

        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--base-url", server.baseURL], environment: environment)
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("0 turns") })
        try session.type("/role ex")
        try session.send("Tab")
        #expect(await session.waitForScreen { $0.contains("› /role explain") })
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("gpt-4o-mini · explain · 0 turns") })
        try session.type("what is a monad")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("explain · 1 turn") })
        let sent = try #require(
            try JSONSerialization.jsonObject(with: Data(try server.request(0).body)) as? [String: Any])
        let system = (sent["messages"] as? [[String: Any]])?.first?["content"] as? String
        #expect(system?.hasPrefix("Explain what you are given") == true)
        try session.send("C-d")
        #expect(await session.exitStatus() == 0)
    }
}
