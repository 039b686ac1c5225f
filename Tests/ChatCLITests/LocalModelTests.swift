import ChatTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `chat` binary against the real model that `scripts/local-model` runs (llama.cpp's
/// llama-server with Qwen2.5-Coder-1.5B-Instruct, or SmolLM2-135M-Instruct where that could not be
/// downloaded, on 127.0.0.1, the built-in `local` profile). When the model is prepared these run,
/// in CI too: against the server `scripts/local-model start` left running, or else against one
/// the suite starts on a free port and stops afterwards. When it is not prepared they are
/// skipped, saying so. The quiz, which the fallback would fail, runs with the default model only.
///
/// llama-server's requests cannot be seen from outside, so the REPL test puts a recording proxy
/// between chat and the server: a `LoopbackServer` whose answer is the real server's response to
/// the same request, forwarded byte for byte. It records every request chat sends, so the test
/// can check that the second one carries the first exchange, and the answers are the model's own.
@Suite(
    .enabled(
        "the local model is not prepared (scripts/local-model start prepares it; then these tests run)"
    ) { LocalModel.availability != .notPrepared },
    .serialized, LocalModelServer())
struct LocalModelTests {
    private func messages(_ request: RecordedRequest) throws -> [(role: String, content: String)] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any])
        let list = try #require(json["messages"] as? [[String: Any]])
        return list.map { ($0["role"] as? String ?? "", $0["content"] as? String ?? "") }
    }

    /// A coherent instruction-tuned model answers a sum with its result; a base model rambles.
    @Test func oneShotAnswersASimpleQuestionCorrectly() async throws {
        let result = try await ChatBinary().run(
            ["--profile", "local", "--base-url", LocalModel.baseURL, "--temperature", "0", "What", "is", "2+2?"],
            timeout: 120)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("4"), "answer: \(result.stdout)")
        #expect(result.stdout.hasSuffix("\n"))
    }

    /// The README's questions and a few more, at temperature 0: each answer has what a person
    /// asking would look for (docs/local-model.md has the whole measurement).
    @Test(
        .enabled("the local model is SmolLM2, the fallback, which gets these wrong") { LocalModel.servesDefault },
        arguments: [
            ("What is the capital of France?", ["paris"]),
            ("What is 2+2?", ["4"]),
            ("What is 3+5?", ["8"]),
            ("What is 12 times 12?", ["144"]),
            ("How many legs does a spider have?", ["8", "eight"]),
            ("What is the largest planet in our solar system?", ["jupiter"]),
            ("What is the opposite of hot?", ["cold"]),
        ])
    func quiz(question: String, accepted: [String]) async throws {
        let result = try await ChatBinary().run(
            ["--profile", "local", "--base-url", LocalModel.baseURL, "--temperature", "0", question], timeout: 120)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let answer = result.stdout.lowercased()
        let words = answer.split { !$0.isLetter && !$0.isNumber }.map(String.init)
        #expect(
            accepted.contains { $0.contains(" ") ? answer.contains($0) : words.contains($0) },
            "\(question) → \(result.stdout)")
        #expect(answer.count < 600, "a long answer to a short question: \(result.stdout)")
    }

    /// Asked for a poem, it writes one that ends (SmolLM2's looped until the token limit).
    @Test(.enabled("the local model is SmolLM2, the fallback, which loops here") { LocalModel.servesDefault })
    func aHaikuEnds() async throws {
        let result = try await ChatBinary().run(
            [
                "--profile", "local", "--base-url", LocalModel.baseURL, "--temperature", "0",
                "Write a haiku about the sea.",
            ],
            timeout: 120)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty
        }
        #expect((3...6).contains(lines.count), "\(result.stdout)")
        #expect(Set(lines).count == lines.count, "a line repeats: \(result.stdout)")
        #expect(!result.stderr.contains("cut off at the token limit"), "\(result.stderr)")
    }

    /// Greeted, it greets back, and the answer ends by itself, well before the context runs out.
    @Test func greetingGetsAGreetingThatEnds() async throws {
        let result = try await ChatBinary().run(
            ["--profile", "local", "--base-url", LocalModel.baseURL, "--temperature", "0", "Hello!"], timeout: 120)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let answer = result.stdout.lowercased()
        #expect(["hello", "hi", "hey", "greetings"].contains { answer.contains($0) }, "answer: \(result.stdout)")
        #expect(answer.count < 2_000, "the answer did not end by itself: \(result.stdout)")
    }

    @Test func replSecondRequestCarriesTheFirstExchange() async throws {
        let port = LocalModel.port
        let proxy = try LoopbackServer { request, _ in
            LocalModel.forward(request, to: port).map { [.raw($0), .end] }
                ?? ServerStep.json(status: 502, #"{"error":"proxy"}"#)
        }
        defer { proxy.stop() }
        // Piped stdin drives the REPL: one message per line, then end of input ends it.
        let result = try await ChatBinary().run(
            ["-i", "--profile", "local", "--base-url", proxy.baseURL, "--temperature", "0", "--max-tokens", "48"],
            input: "Name a colour.\nName another one.\n", timeout: 240)
        #expect(result.status == 0, "stderr: \(result.stderr)")

        let requests = proxy.requests
        try #require(requests.count == 2, "stderr: \(result.stderr)")
        #expect(try messages(requests[0]).map(\.role) == ["user"])
        #expect(try messages(requests[0]).map(\.content) == ["Name a colour."])
        let second = try messages(requests[1])
        #expect(second.map(\.role) == ["user", "assistant", "user"])
        #expect(second.first?.content == "Name a colour.")
        #expect(second.last?.content == "Name another one.")
        // The first answer, as the model gave it and chat showed it, goes back in the second request.
        let firstAnswer = second.count == 3 ? second[1].content.trimmingCharacters(in: .whitespacesAndNewlines) : ""
        #expect(!firstAnswer.isEmpty)
        #expect(result.stdout.contains(firstAnswer))
        // And the second answer arrived too (it may repeat the first: a small model does).
        let shown = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(shown.count > firstAnswer.count, "no second answer: \(result.stdout)")
    }

    /// llama-server speaks Anthropic's Messages API too (`/v1/messages`): the `anthropic`
    /// provider against a third-party implementation of it, through the recording proxy. A sum
    /// comes back with its result, and an answer cut at `--max-tokens` gets its note.
    @Test func anthropicProviderAnswersThroughLlamaServersMessagesAPI() async throws {
        let port = LocalModel.port
        let proxy = try LoopbackServer { request, _ in
            LocalModel.forward(request, to: port).map { [.raw($0), .end] }
                ?? ServerStep.json(status: 502, #"{"type":"error","error":{"type":"api_error","message":"proxy"}}"#)
        }
        defer { proxy.stop() }
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let config = try chat.writeConfig(
            #"{"profiles": {"llama": {"provider": "anthropic", "base_url": "\#(proxy.baseURL)", "#
                + #""model": "local"}}}"#)
        let options = ["--config", config, "--profile", "llama", "--temperature", "0"]
        let sum = try await chat.run(options + ["What", "is", "2+2?"], timeout: 120)
        #expect(sum.status == 0, "stderr: \(sum.stderr)")
        #expect(sum.stdout.contains("4"), "answer: \(sum.stdout)")
        let cut = try await chat.run(
            options + ["--max-tokens", "3", "Tell", "me", "a", "long", "story."], timeout: 120)
        #expect(cut.status == 0, "stderr: \(cut.stderr)")
        #expect(cut.stderr.hasPrefix("chat: note: the answer was cut off at the token limit"), "\(cut.stderr)")
        let requests = proxy.requests
        #expect(requests.map(\.path) == ["/v1/messages", "/v1/messages"])
        #expect(requests.allSatisfy { $0.header("anthropic-version") == "2023-06-01" })
        #expect(requests.last?.bodyText.contains(#""max_tokens":3"#) == true)
    }
}

/// The local server of `scripts/local-model`, reached with plain sockets.
enum LocalModel {
    /// What `scripts/local-model status` says.
    enum Availability: Equatable, Sendable {
        /// Running on this port.
        case running(port: UInt16)
        /// Prepared but not running: the suite starts it.
        case prepared
        case notPrepared
    }

    /// The repository's `scripts/local-model`.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/local-model").path

    static let availability: Availability = {
        guard let result = runScript(["status"], timeout: 30) else { return .notPrepared }
        switch result.status {
        case 0:
            // "running (pid N) at http://127.0.0.1:PORT/v1, model NAME"
            let port = result.stdout.split(separator: "127.0.0.1:").dropFirst().first?.prefix { $0.isNumber }
            return port.flatMap { UInt16($0) }.map { .running(port: $0) } ?? .notPrepared
        case 3: return .prepared
        default: return .notPrepared
        }
    }()

    /// Whether the model is the default (Qwen2.5-Coder-1.5B-Instruct), not the fallback, as
    /// `scripts/local-model status` names it.
    static let servesDefault: Bool = {
        guard let result = runScript(["status"], timeout: 30), result.status == 0 || result.status == 3 else {
            return false
        }
        return result.stdout.contains("Qwen2.5-Coder-1.5B-Instruct")
    }()

    /// The port of the server the tests use (set by `LocalModelServer`).
    @TaskLocal static var port: UInt16 = 8080

    static var baseURL: String { "http://127.0.0.1:\(port)/v1" }

    /// Starts `scripts/local-model` with this process's environment (its data directory is the
    /// person's) and `extra`.
    static func startScript(_ arguments: [String], extra: [String: String] = [:]) throws -> ChatBinary.Running {
        var binary = ChatBinary()
        binary.environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        return try binary.start(arguments, executable: script)
    }

    /// Runs `scripts/local-model` to its end, blocking the thread (for the suite's condition,
    /// which is a quick `status`); nil when it cannot be run or takes over `timeout` seconds.
    static func runScript(_ arguments: [String], timeout: Double) -> ChatBinary.Result? {
        guard let running = try? startScript(arguments) else { return nil }
        let deadline = Date().addingTimeInterval(timeout)
        var raw: Int32 = 0
        while waitpid(running.pid, &raw, WNOHANG) != running.pid {
            running.stdout.drain()
            running.stderr.drain()
            guard Date() < deadline else {
                kill(running.pid, SIGKILL)
                waitpid(running.pid, &raw, 0)
                return nil
            }
            usleep(10_000)
        }
        let status = raw & 0x7f == 0 ? (raw >> 8) & 0xff : 128 + (raw & 0x7f)
        return ChatBinary.Result(status: status, stdout: running.stdout.finish(), stderr: running.stderr.finish())
    }

    /// A port nothing listens on now, chosen by the kernel.
    static func freePort() -> UInt16? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        return bound ? UInt16(bigEndian: address.sin_port) : nil
    }

    /// Sends `request` to the local server, with `Connection: close` so the whole response is what
    /// arrives before the server closes; returns the response's bytes as sent (head and body).
    static func forward(_ request: RecordedRequest, to port: UInt16) -> [UInt8]? {
        var head = "\(request.method) \(request.path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in request.headers.sorted(by: { $0.key < $1.key })
        where !["host", "connection", "content-length", "transfer-encoding", "expect"].contains(name) {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(request.body.count)\r\nConnection: close\r\n\r\n"
        return exchange(Array(head.utf8) + request.body, port: port, timeout: 120)
    }

    /// Connects to 127.0.0.1:`port`, sends `bytes`, and reads until the server closes; nil if it
    /// cannot connect, or no byte arrives for `timeout` seconds.
    private static func exchange(_ bytes: [UInt8], port: UInt16, timeout: Int) -> [UInt8]? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var time = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return nil }
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return nil }
            sent += n
        }
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n > 0 {
                response += buffer[..<n]
            } else if n == 0 {
                return response
            } else if errno != EINTR {
                return nil
            }
        }
    }
}

/// Around the whole suite: the running server's port, or a server started on a free port for
/// the suite and stopped after it.
struct LocalModelServer: SuiteTrait, TestScoping {
    struct StartFailed: Error, CustomStringConvertible {
        var description: String
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        switch LocalModel.availability {
        case .running(let port):
            try await LocalModel.$port.withValue(port) { try await function() }
        case .prepared:
            guard let port = LocalModel.freePort() else { throw StartFailed(description: "no free port") }
            // The model that is prepared: where that is the fallback, no download of the default
            // in the middle of the tests.
            var extra = ["CHAT_LOCAL_PORT": "\(port)"]
            if !LocalModel.servesDefault { extra["CHAT_LOCAL_MODEL"] = "smollm2" }
            let started = try await LocalModel.startScript(["start"], extra: extra).wait(timeout: 180)
            guard started.status == 0 else {
                throw StartFailed(description: "scripts/local-model start failed: \(started.stderr)")
            }
            do {
                try await LocalModel.$port.withValue(port) { try await function() }
            } catch {
                _ = try? await LocalModel.startScript(["stop"]).wait(timeout: 30)
                throw error
            }
            _ = try? await LocalModel.startScript(["stop"]).wait(timeout: 30)
        case .notPrepared:
            try await function()
        }
    }
}
