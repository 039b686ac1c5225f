import ChatTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `chat` against a real third-party server that speaks all three of its APIs: the
/// LiteLLM proxy from PyPI (pinned in Tests/litellm-test-requirements.txt), which serves OpenAI's
/// Chat Completions (`/v1/chat/completions`), OpenAI's Responses API (`/v1/responses`) and
/// Anthropic's Messages API (`/v1/messages`), translating the last two into Chat Completions for
/// the model behind it. That model is Tests/litellm-upstream.py, scripted (an echo, and a call of
/// `get_current_time` when asked the time), which logs what LiteLLM sent it.
///
/// Opt-in: `CHAT_TEST_LITELLM=1` runs them. The proxy's venv is some 120 packages and 760 MB
/// (about 80 s to install from a local index, scripts/litellm-test-venv, which the suite runs
/// when the venv is not ready), and the proxy takes 10 to 70 s to start (the longer on a loaded
/// machine). The suite starts the upstream and the proxy once, on free ports of 127.0.0.1, and
/// stops both at its end. chat reaches the proxy through a recording proxy of its own (a
/// `LoopbackServer` forwarding each request), so each test sees what chat sent and what the
/// model behind LiteLLM got.
@Suite(
    .enabled(if: LiteLLM.wanted, "opt-in: CHAT_TEST_LITELLM=1 runs them (they install the LiteLLM proxy, 760 MB)"),
    .serialized, .timeLimit(.minutes(5)), LiteLLMProxyScope())
struct LiteLLMProxyTests {
    /// A provider (also the name of its profile in the config) and LiteLLM's path for its API.
    struct Provider: Sendable, CustomTestStringConvertible {
        var name: String
        var path: String
        /// What marks a piece of text in its stream.
        var textEvent: String
        var testDescription: String { name }
    }

    static let providers = [
        Provider(name: "openai", path: "/v1/chat/completions", textEvent: #""delta":{"content":"#),
        Provider(name: "openai-responses", path: "/v1/responses", textEvent: #""type":"response.output_text.delta""#),
        Provider(name: "anthropic", path: "/v1/messages", textEvent: #""type": "text_delta""#),
    ]

    /// A config with a profile per provider, each at `baseURL` with the proxy's key, and the MCP
    /// server `time` (mcp-server-time), its `get_current_time` approved.
    private func config(_ chat: ChatBinary, baseURL: String) throws -> String {
        let time = try MCPTestVenv.timeServer.get()
        let profiles = Self.providers.map {
            #""\#($0.name)": {"provider": "\#($0.name)", "base_url": "\#(baseURL)", "model": "upstream", "#
                + #""api_key_env": "LITELLM_TEST_KEY"}"#
        }
        return try chat.writeConfig(
            #"{"profiles": {\#(profiles.joined(separator: ", "))}, "mcp_servers": {"time": {"command": "#
                + #""\#(time)", "auto_approve": ["get_current_time"]}}}"#)
    }

    /// A recording proxy in front of LiteLLM; LiteLLM's responses, as they came, go in `responses`.
    private func recorder(_ responses: Recorded = Recorded()) throws -> LoopbackServer {
        let port = LiteLLM.current.port
        return try LoopbackServer { request, _ in
            guard let response = LocalModel.forward(request, to: port) else {
                return ServerStep.json(status: 502, #"{"error": {"message": "the recording proxy got no answer"}}"#)
            }
            responses.append(String(decoding: response, as: UTF8.self))
            return [.raw(response), .end]
        }
    }

    private func json(_ request: RecordedRequest) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
    }

    /// Each provider's answer streams through LiteLLM's translation: LiteLLM streams the model's
    /// three pieces as its API's text events, and chat shows the text whole on stdout and as the
    /// deltas of `--json`.
    @Test(arguments: providers)
    func aStreamedAnswerThroughEachProvider(_ provider: Provider) async throws {
        let responses = Recorded()
        let recorder = try recorder(responses)
        defer { recorder.stop() }
        let chat = ChatBinary(environment: ["LITELLM_TEST_KEY": LiteLLM.masterKey])
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let config = try config(chat, baseURL: recorder.baseURL)
        let prompt = "Hello through \(provider.name) \(UUID().uuidString.prefix(8))"

        let plain = try await chat.run(["--config", config, "--profile", provider.name, prompt], timeout: 90)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.stdout == "Upstream heard: \(prompt)\n")
        #expect(plain.stderr == "")

        let events = try await chat.run(
            ["--config", config, "--profile", provider.name, "--json", prompt], timeout: 90)
        #expect(events.status == 0, "\(events.stderr)")
        let lines = events.stdout.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let deltas = lines.filter { $0["type"] as? String == "delta" }.compactMap { $0["text"] as? String }
        #expect(deltas.joined() == "Upstream heard: \(prompt)")
        #expect(lines.first?["provider"] as? String == provider.name)
        #expect(lines.contains { $0["type"] as? String == "usage" && $0["completion_tokens"] as? Int == 5 })
        #expect(lines.last?["type"] as? String == "done")

        // chat asked the API of its provider, streamed, with the proxy's key in that API's header.
        #expect(recorder.requests.map(\.path) == [provider.path, provider.path])
        for request in recorder.requests {
            #expect(try json(request)["stream"] as? Bool == true)
            let key =
                provider.name == "anthropic" ? request.header("x-api-key") : request.header("authorization")
            #expect(key == (provider.name == "anthropic" ? "" : "Bearer ") + LiteLLM.masterKey)
        }
        // LiteLLM streamed the answer in the model's three pieces, as its API's text events (chat
        // may show pieces that arrive together as one).
        for response in responses.all {
            #expect(response.components(separatedBy: provider.textEvent).count - 1 == 3, "\(response)")
        }
        if provider.name == "openai-responses" {
            #expect(try json(try recorder.request(0))["store"] as? Bool == false)
        }
        // And LiteLLM asked the model for a stream, with the question.
        let upstream = LiteLLM.current.upstreamRequests.filter { "\($0)".contains(prompt) }
        #expect(upstream.count == 2, "\(LiteLLM.current.upstreamRequests)")
        #expect(upstream.allSatisfy { $0["stream"] as? Bool == true })
    }

    /// A tool round through the Responses API, which LiteLLM turns into Chat Completions: the
    /// model's call, mcp-server-time's answer, and the second request carrying the call and its
    /// output under the same call id (no item ids: `store` is false). Then `-c` goes on from the
    /// stored conversation, the round carried again.
    @Test func aResponsesToolRoundAndItsContinuation() async throws {
        let recorder = try recorder()
        defer { recorder.stop() }
        let chat = ChatBinary(environment: ["LITELLM_TEST_KEY": LiteLLM.masterKey])
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let config = try config(chat, baseURL: recorder.baseURL)
        let options = ["--config", config, "--profile", "openai-responses", "-T", "time"]

        let result = try await chat.run(options + ["What time is it in Tokyo? Use the tool."], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("The tool says 20"), "\(result.stdout)")
        #expect(result.stdout.hasSuffix("+09:00.\n"), "\(result.stdout)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(lines.first?.hasPrefix(#"⚙ time.get_current_time {"timezone":"Asia/Tokyo"} · "#) == true)
        #expect(lines.first?.contains(" · ok · ") == true, "\(result.stderr)")

        #expect(recorder.requests.map(\.path) == ["/v1/responses", "/v1/responses"])
        let first = try json(try recorder.request(0))
        let tools = try #require(first["tools"] as? [[String: Any]])
        #expect(
            tools.contains { $0["name"] as? String == "time__get_current_time" && $0["type"] as? String == "function" })
        let second = try json(try recorder.request(1))
        #expect(second["store"] as? Bool == false)
        let input = try #require(second["input"] as? [[String: Any]])
        #expect(input.compactMap { $0["type"] as? String } == ["message", "function_call", "function_call_output"])
        let call = input[1]
        #expect(call["call_id"] as? String == "call_tokyo_1")
        #expect(call["name"] as? String == "time__get_current_time")
        #expect(call["arguments"] as? String == #"{"timezone":"Asia/Tokyo"}"#)
        #expect(call["id"] == nil, "an item id sent back with store false")
        let output = input[2]
        #expect(output["call_id"] as? String == "call_tokyo_1")
        #expect((output["output"] as? String)?.contains(#""timezone": "Asia/Tokyo""#) == true, "\(output)")

        // LiteLLM made them a tool call and a tool message, the id kept.
        let upstream = LiteLLM.current.upstreamRequests.filter { "\($0)".contains("Use the tool.") }
        let messages = try #require(upstream.last?["messages"] as? [[String: Any]])
        #expect(messages.compactMap { $0["role"] as? String } == ["user", "assistant", "tool"])
        let calls = try #require(messages[1]["tool_calls"] as? [[String: Any]])
        #expect(calls.first?["id"] as? String == "call_tokyo_1")
        #expect(messages[2]["tool_call_id"] as? String == "call_tokyo_1")

        // Continued: the stored round goes again as items, and the answer is to the new question.
        let continued = try await chat.run(options + ["-c", "And in Paris?"], timeout: 90)
        #expect(continued.status == 0, "\(continued.stderr)")
        #expect(continued.stdout == "Upstream heard: And in Paris?\n")
        #expect(continued.stderr == "")
        let third = try json(try recorder.request(2))
        let items = try #require(third["input"] as? [[String: Any]])
        #expect(
            items.compactMap { $0["type"] as? String }
                == ["message", "function_call", "function_call_output", "message", "message"])
        #expect(items.compactMap { $0["call_id"] as? String } == ["call_tokyo_1", "call_tokyo_1"])
        #expect(items.compactMap { $0["role"] as? String } == ["user", "assistant", "user"])
        #expect("\(items[3])".contains("The tool says"))
        #expect("\(items[4])".contains("And in Paris?"))
    }
}

/// What a recording proxy's closure keeps, across its threads.
final class Recorded: Sendable {
    private let list = Mutex<[String]>([])

    func append(_ text: String) { list.withLock { $0.append(text) } }

    var all: [String] { list.withLock { $0 } }
}

/// The LiteLLM proxy and its upstream, as the suite started them.
enum LiteLLM {
    /// `CHAT_TEST_LITELLM=1`.
    static let wanted = ProcessInfo.processInfo.environment["CHAT_TEST_LITELLM"] == "1"

    /// The proxy's master key (it refuses to start without one).
    static let masterKey = "sk-chat-test-0123456789abcdef0123456789abcdef"

    /// The package's root.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Servers: Sendable {
        /// LiteLLM's port.
        var port: UInt16 = 0
        /// The upstream's log: one JSON line per request.
        var upstreamLog = ""

        /// The bodies LiteLLM sent the upstream, in order.
        var upstreamRequests: [[String: Any]] {
            let text = (try? String(contentsOfFile: upstreamLog, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["body"] as? [String: Any]
            }
        }
    }

    /// Set by `LiteLLMProxyScope` for the suite.
    @TaskLocal static var current = Servers()

    /// The venv with LiteLLM: `CHAT_TEST_LITELLM_VENV`, else .build/litellm-test-venv, made or
    /// brought up to date by scripts/litellm-test-venv (at once when it is).
    static func venv() throws -> String {
        let venv =
            ProcessInfo.processInfo.environment["CHAT_TEST_LITELLM_VENV"]
            ?? root.appendingPathComponent(".build/litellm-test-venv").path
        let script = root.appendingPathComponent("scripts/litellm-test-venv").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: script)
        process.arguments = [venv]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw LiteLLMProxyScope.StartFailed(description: "\(script) \(venv) failed (\(process.terminationStatus))")
        }
        return venv
    }
}

/// Around the whole suite: the upstream and LiteLLM started on free ports, stopped after it.
struct LiteLLMProxyScope: SuiteTrait, TestScoping {
    struct StartFailed: Error, CustomStringConvertible {
        var description: String
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        guard LiteLLM.wanted else { return try await function() }
        let venv = try LiteLLM.venv()
        let directory = NSTemporaryDirectory() + "chat-litellm-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var launcher = ChatBinary()
        launcher.environment = [
            "HOME": directory, "PATH": venv + "/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1",
            // Offline: the model price list from the package, not from GitHub.
            "LITELLM_LOCAL_MODEL_COST_MAP": "True",
        ]

        // The upstream prints its port once it listens.
        let upstreamLog = directory + "/upstream.jsonl"
        let upstream = try launcher.start(
            [root("Tests/litellm-upstream.py"), upstreamLog], executable: venv + "/bin/python3")
        defer { stop(upstream.pid) }
        guard await upstream.waitForOutput(containing: "\n", timeout: 30),
            let upstreamPort = UInt16(upstream.stdout.text.trimmingCharacters(in: .whitespacesAndNewlines))
        else { throw StartFailed(description: "the upstream did not start: \(upstream.stderr.text)") }

        // LiteLLM, its output in a file (a pipe no one read would fill and stop it).
        guard let port = LocalModel.freePort() else { throw StartFailed(description: "no free port") }
        let config = directory + "/litellm.yaml"
        try """
        model_list:
          - model_name: upstream
            litellm_params:
              model: custom_openai/upstream-model
              api_base: http://127.0.0.1:\(upstreamPort)/v1
              api_key: unused
        general_settings:
          master_key: \(LiteLLM.masterKey)

        """.write(toFile: config, atomically: true, encoding: .utf8)
        let log = directory + "/litellm.log"
        let proxy = try launcher.start(
            [
                "-c", #"exec "$0" --config "$1" --host 127.0.0.1 --port "$2" >"$3" 2>&1"#, venv + "/bin/litellm",
                config, "\(port)", log,
            ], executable: "/bin/sh")
        defer { stop(proxy.pid) }
        try await waitUntilListening(proxy.pid, log: log, timeout: 180)
        var servers = LiteLLM.Servers()
        servers.port = port
        servers.upstreamLog = upstreamLog
        try await LiteLLM.$current.withValue(servers) { try await function() }
    }

    private func root(_ path: String) -> String { LiteLLM.root.appendingPathComponent(path).path }

    /// Waits until LiteLLM's log says uvicorn listens; throws with the log's end if it ends first
    /// or takes longer than `timeout` seconds.
    private func waitUntilListening(_ pid: pid_t, log: String, timeout: Double) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        var text = ""
        while Date() < deadline {
            text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if text.contains("Uvicorn running on") { return }
            var raw: Int32 = 0
            if waitpid(pid, &raw, WNOHANG) == pid {
                throw StartFailed(description: "LiteLLM ended before it listened: \(text.suffix(2_000))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw StartFailed(description: "LiteLLM did not listen within \(Int(timeout)) s: \(text.suffix(2_000))")
    }

    /// Kills `pid`'s process group (it leads a session of its own) and reaps it.
    private func stop(_ pid: pid_t) {
        kill(-pid, SIGKILL)
        var raw: Int32 = 0
        waitpid(pid, &raw, 0)
    }
}
