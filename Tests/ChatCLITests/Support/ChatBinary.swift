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
    func writeConfig(_ json: String, name: String = "config.json", mode: Int = 0o600) throws -> String {
        let path = home + "/" + name
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
        return path
    }

    /// Starts chat with `arguments`; stdin is `input` (nil: /dev/null).
    func start(_ arguments: [String], input: String? = nil) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.path)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        if let input {
            let inPipe = Pipe()
            process.standardInput = inPipe
            try process.run()
            inPipe.fileHandleForWriting.write(Data(input.utf8))
            try inPipe.fileHandleForWriting.close()
        } else {
            process.standardInput = FileHandle.nullDevice
            try process.run()
        }
        return Running(
            process: process, stdout: Collector(out.fileHandleForReading), stderr: Collector(err.fileHandleForReading))
    }

    /// Runs chat to its end (at most `timeout` seconds).
    func run(_ arguments: [String], input: String? = nil, timeout: Double = 20) throws -> Result {
        let running = try start(arguments, input: input)
        return running.wait(timeout: timeout)
    }

    /// A started chat process.
    struct Running {
        let process: Process
        let stdout: Collector
        let stderr: Collector

        func signal(_ number: Int32) { kill(process.processIdentifier, number) }

        /// Waits until stdout holds `text` (at most `timeout` seconds); returns whether it did.
        func waitForOutput(containing text: String, timeout: Double = 10) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if stdout.text.contains(text) { return true }
                usleep(10_000)
            }
            return false
        }

        func wait(timeout: Double = 20) -> Result {
            let deadline = Date().addingTimeInterval(timeout)
            while process.isRunning && Date() < deadline { usleep(5_000) }
            if process.isRunning {
                process.terminate()
                process.waitUntilExit()
                return Result(status: -1, stdout: stdout.finish(), stderr: stderr.finish() + "\n[test: timed out]")
            }
            process.waitUntilExit()
            return Result(status: process.terminationStatus, stdout: stdout.finish(), stderr: stderr.finish())
        }
    }

    /// Gathers a pipe's bytes as they arrive.
    final class Collector: @unchecked Sendable {
        // Guarded by `lock`; the readability handler runs on another thread.
        private let lock = NSLock()
        private var data = Data()
        private let handle: FileHandle

        init(_ handle: FileHandle) {
            self.handle = handle
            handle.readabilityHandler = { [weak self] handle in
                let chunk = handle.availableData
                guard let self, !chunk.isEmpty else { return }
                self.lock.withLock { self.data.append(chunk) }
            }
        }

        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }

        func finish() -> String {
            handle.readabilityHandler = nil
            let rest = handle.readDataToEndOfFile()
            return lock.withLock {
                data.append(rest)
                return String(decoding: data, as: UTF8.self)
            }
        }
    }
}
