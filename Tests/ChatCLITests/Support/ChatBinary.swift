import Foundation

/// Runs the built `chat` binary as a person would, with a clean environment.
struct ChatBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// `.build/<config>/chat`, beside the test bundle.
    static var path: String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = executable.deletingLastPathComponent()
        // On Linux the test runner is `<dir>/chatPackageTests.xctest`; elsewhere a bundle.
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("chat").path)
            && directory.path != "/"
        {
            directory = directory.deletingLastPathComponent()
        }
        return directory.appendingPathComponent("chat").path
    }

    /// A home directory of its own, so no real config is read.
    let home: String
    var environment: [String: String]

    init(environment extra: [String: String] = [:]) {
        home = NSTemporaryDirectory() + "chat-cli-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        environment = [
            "HOME": home, "PATH": "/usr/bin:/bin", "XDG_CONFIG_HOME": home + "/config",
            "XDG_DATA_HOME": home + "/data", "LANG": "C.UTF-8",
        ]
        environment.merge(extra) { $1 }
    }

    /// Writes a config file and returns its path.
    /// Writes `bytes` to `name` in the home (its directories made) and returns its path.
    func writeFile(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = home + "/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    func writeConfig(_ json: String, name: String = "config.json", mode: Int = 0o600) throws -> String {
        let path = home + "/" + name
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    /// Starts chat with `arguments`; stdin is `input` (nil: /dev/null). Spawned with posix_spawn
    /// and reaped with waitpid: no Foundation Process, whose exit watching lags under load.
    func start(_ arguments: [String], input: String? = nil, executable: String = ChatBinary.path) throws -> Running {
        // Writing stdin to a child that already ended must fail with EPIPE, not kill the tests.
        signal(SIGPIPE, SIG_IGN)
        var output: [Int32] = [-1, -1]
        var errors: [Int32] = [-1, -1]
        var stdinPipe: [Int32] = [-1, -1]
        guard pipe(&output) == 0, pipe(&errors) == 0, input == nil || pipe(&stdinPipe) == 0 else {
            throw POSIXError(.EMFILE)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, stdinPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, output[1], 1)
        posix_spawn_file_actions_adddup2(&actions, errors[1], 2)
        for fd in output + errors + stdinPipe where fd > 2 { posix_spawn_file_actions_addclose(&actions, fd) }
        ChatBinary.closeTheRest(&actions)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // A session of its own: no controlling terminal, as in CI, even when the tests run in one.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, 0x80)  // POSIX_SPAWN_SETSID (glibc; not imported)
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        close(output[1])
        close(errors[1])
        if input != nil { close(stdinPipe[0]) }
        guard spawned == 0 else { throw POSIXError(.ENOENT) }
        if let input {
            let bytes = Array(input.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(stdinPipe[1], $0.baseAddress, $0.count) }
                if written <= 0 { break }
                offset += written
            }
            close(stdinPipe[1])
        }
        return Running(pid: pid, stdout: Collector(fd: output[0]), stderr: Collector(fd: errors[0]))
    }

    /// Runs chat to its end (at most `timeout` seconds). Waiting sleeps the task, never blocks a
    /// thread of the small cooperative pool that other tests' async work needs.
    func run(_ arguments: [String], input: String? = nil, timeout: Double = 20) async throws -> Result {
        let running = try start(arguments, input: input)
        return await running.wait(timeout: timeout)
    }

    /// Adds to `actions` the closing of every descriptor above stderr, so a child holds nothing
    /// of the test process: an inherited socket (a loopback connection or libcurl transfer of a
    /// test running alongside) would stay open while the child runs, and its peer would never see
    /// it close; an inherited pipe end would keep another child's stdin from ending.
    static func closeTheRest(_ actions: inout posix_spawn_file_actions_t) {
        // glibc 2.34's posix_spawn_file_actions_addclosefrom_np; Swift's Glibc module leaves out
        // the _GNU_SOURCE declarations, so it is looked up by name.
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }

    /// A started chat process.
    final class Running: @unchecked Sendable {
        // `@unchecked`: `status` is only touched by the task that waits.
        let pid: pid_t
        let stdout: Collector
        let stderr: Collector
        private var status: Int32?

        init(pid: pid_t, stdout: Collector, stderr: Collector) {
            self.pid = pid
            self.stdout = stdout
            self.stderr = stderr
        }

        func signal(_ number: Int32) { kill(pid, number) }

        /// Waits until stdout holds `text` (at most `timeout` seconds); returns whether it did.
        func waitForOutput(containing text: String, timeout: Double = 30) async -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                stdout.drain()
                if stdout.text.contains(text) { return true }
                try? await Task.sleep(for: .milliseconds(10))
            }
            stdout.drain()
            return stdout.text.contains(text)
        }

        func wait(timeout: Double = 20) async -> Result {
            let deadline = Date().addingTimeInterval(timeout)
            while status == nil && Date() < deadline {
                stdout.drain()
                stderr.drain()
                reap(blocking: false)
                if status == nil { try? await Task.sleep(for: .milliseconds(5)) }
            }
            // Once more after the deadline: a task resumed late (the test pool's two threads held
            // by other tests' blocking work) must not take a process that ended for one that hung.
            if status == nil { reap(blocking: false) }
            var note = ""
            if status == nil {
                kill(pid, SIGKILL)
                reap(blocking: true)
                note = "\n[test: timed out]"
                status = -1
            }
            return Result(status: status ?? -1, stdout: stdout.finish(), stderr: stderr.finish() + note)
        }

        private func reap(blocking: Bool) {
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, blocking ? 0 : WNOHANG)
            guard result == pid else { return }
            let signalled = raw & 0x7f
            status = signalled == 0 ? (raw >> 8) & 0xff : 128 + signalled
        }
    }

    /// Gathers a pipe's bytes; reads without blocking until the end.
    final class Collector: @unchecked Sendable {
        // `@unchecked`: only the waiting task reads the pipe and the buffer.
        private let fd: Int32
        private var data = Data()
        private var closed = false

        init(fd: Int32) {
            self.fd = fd
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }

        deinit {
            if !closed { close(fd) }
        }

        var text: String { String(decoding: data, as: UTF8.self) }

        /// Reads what has arrived.
        func drain() {
            guard !closed else { return }
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(fd, &buffer, buffer.count)
                if count > 0 {
                    data.append(contentsOf: buffer[0..<count])
                } else {
                    if count == 0 {
                        close(fd)
                        closed = true
                    }
                    return
                }
            }
        }

        /// Reads to the end (the process has ended) and returns everything.
        func finish() -> String {
            let deadline = Date().addingTimeInterval(2)
            while !closed && Date() < deadline {
                drain()
                if !closed { usleep(1_000) }
            }
            return text
        }
    }
}
