import ChatTestSupport
import Foundation
import Testing

/// Config and input errors that locate the problem: the built binary with a config that is not
/// strict JSON, an unknown key, an unknown slash command; a 401 in the REPL, whose way forward is
/// a corrected key, not /retry.
@Suite struct LocatingErrorsTests {
    @Test(arguments: [
        ("{\n  \"model\": \"m\",\n}\n", "line 3, column 1: a comma before }"),
        (
            "{\n  \"model\": \"m\"\n  \"stream\": true\n}\n",
            "line 3, column 3: a comma or } expected after the value of \"model\""
        ),
        ("{\"model\": 'm'}", "line 1, column 11: a single quote (strings take double quotes) where a value should be"),
        ("// my config\n{}", "line 1, column 1: a comment (JSON has none) where a value should be"),
        ("{\"headers\": {\"X-A\": \"1\",}}", "line 1, column 25: a comma before }"),
        (
            "{\"profiles\": {\"p\": {\"model\": \"m\"}}",
            "line 1, column 35: the text ends inside an object (a } is missing)"
        ),
    ])
    func aConfigThatIsNotStrictJSONNamesTheLineAndColumn(json: String, problem: String) async throws {
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-x"])
        let config = try chat.writeConfig(json)
        let result = try await chat.run(["--config", config, "hi"])
        #expect(result.status == 2)
        #expect(result.stdout == "")
        #expect(result.stderr == "chat: error: config \(config): (file): not valid JSON: \(problem)\n")
    }

    @Test(arguments: [
        (#"{"modle": "m"}"#, "modle: unknown key; did you mean model?"),
        (#"{"profiles": {"p": {"temprature": 1}}}"#, "profiles.p.temprature: unknown key; did you mean temperature?"),
        (#"{"default-profile": "p"}"#, "default-profile: unknown key; did you mean default_profile?"),
        (#"{"cacert": "/x"}"#, "cacert: unknown key; did you mean ca_cert?"),
    ])
    func anUnknownKeySuggestsTheNearestOne(json: String, message: String) async throws {
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-x"])
        let config = try chat.writeConfig(json)
        let result = try await chat.run(["--config", config, "hi"])
        #expect(result.status == 2)
        #expect(result.stderr == "chat: error: config \(config): \(message)\n")
    }

    @Test func anUnknownKeyFarFromAnyListsTheKnownOnes() async throws {
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-x"])
        let config = try chat.writeConfig(#"{"colour": "blue"}"#)
        let result = try await chat.run(["--config", config, "hi"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("colour: unknown key (known keys: allow_insecure_http, api_key,"))
    }

    @Test func anUnknownSlashCommandSuggestsTheNearestOne() async throws {
        let chat = ChatBinary()
        let result = try await chat.run(
            ["-i", "--base-url", "http://127.0.0.1:9/v1"], input: "/hlep\n/modles\n/RETYR\n/frobnicate\n")
        #expect(result.status == 0)
        #expect(
            result.stderr == """
                chat: error: unknown command /hlep; did you mean /help? (/help lists the commands)
                chat: error: unknown command /modles; did you mean /models? (/help lists the commands)
                chat: error: unknown command /RETYR; did you mean /retry? (/help lists the commands)
                chat: error: unknown command /frobnicate (/help lists the commands)

                """)
    }

    @Test func a401InTheREPLSaysHowToFixTheKeyAndKeepsTheMessage() async throws {
        let rejecting = try LoopbackServer { _, _ in
            ServerStep.json(
                status: 401, #"{"error":{"message":"Incorrect API key provided","code":"invalid_api_key"}}"#)
        }
        defer { rejecting.stop() }
        var chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-wrong"])
        let failed = try await chat.run(["-i", "--base-url", rejecting.baseURL], input: "remember the milk\n")
        #expect(failed.status == 0)
        // The conversation has no answer, so `chat -c` would not take it: the note names its id.
        let id = try #require(try await chat.run(["--list", "--all"]).stdout.split(separator: " ").first)
        #expect(
            failed.stderr == """
                chat: error: 401 unauthorized: Incorrect API key provided (check your API key: OPENAI_API_KEY, \
                ANTHROPIC_API_KEY for the anthropic provider, or the config's api_key_* settings)
                (retrying cannot fix the key; your message is kept: correct the key, then chat --conversation \(id) and \
                /retry send it)

                """)
        #expect(rejecting.requests.count == 1)

        // What the note says works: with the key corrected, chat --conversation ID and /retry send the kept message.
        let answering = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("noted"), ServerStep.finishChunk()])
        }
        defer { answering.stop() }
        chat.environment["OPENAI_API_KEY"] = "sk-right"
        let retried = try await chat.run(
            ["--conversation", String(id), "-i", "--base-url", answering.baseURL], input: "/retry\n")
        #expect(retried.status == 0, "stderr: \(retried.stderr)")
        #expect(retried.stdout == "noted\n")
        #expect(answering.requests.first?.bodyText.contains("remember the milk") == true)
    }

    @Test func a401InTheREPLWithoutHistorySaysHowToKeepTheMessage() async throws {
        let rejecting = try LoopbackServer { _, _ in ServerStep.json(status: 401, #"{"error":{"message":"bad key"}}"#) }
        defer { rejecting.stop() }
        let chat = ChatBinary(environment: ["OPENAI_API_KEY": "sk-wrong"])
        let failed = try await chat.run(["-i", "--no-history", "--base-url", rejecting.baseURL], input: "hello\n")
        #expect(
            failed.stderr.contains("(retrying cannot fix the key; your message is kept for this session: /save FILE"))
        #expect(!failed.stderr.contains("/retry sends it again"))
    }
}
