import ChatDomain
import ChatJSON
import ChatSystem
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// JSON-RPC 2.0 with an MCP server run as a child process: one JSON message a line on its
/// standard input and output; its standard error goes to a log file, never to the terminal.
///
/// Each request waits for its answer at most its timeout; a request whose task is cancelled, or
/// that times out, is given up and the server told so (`notifications/cancelled`). The server's
/// own requests and notifications go to its `MCPInbound` (the requests answered in turn). When
/// its output ends, every request still waiting fails. `close()` ends the child within 3 s: its
/// input closed, then SIGTERM, then SIGKILL.
///
/// Each descriptor has one owner that closes it once: the input `stop()` (under `writing`, so
/// no write can meet a closed, or reused, number), the output the read loop when it ends.
final class MCPStdioConnection: MCPConnection {
    private struct State {
        var nextID = 0
        var pending: [Int: CheckedContinuation<Result<JSONValue, MCPRequestError>, Never>] = [:]
        /// Why no more requests can be answered, once that is so.
        var ended: ToolServerFailure?
        var reaped = false
    }

    let name: String
    /// The child's process id.
    let pid: pid_t
    private let input: Int32
    private let state = Mutex(State())
    /// One writer at a time, so that messages are never interleaved.
    private let writing = Mutex(())
    private let timers = DispatchQueue(label: "chat.mcp.timers")
    /// Handles what the server sends of its own accord.
    private let inbound: MCPInbound

    /// Starts `entry`'s command, its standard error appended to `logPath`; `inbound` handles the
    /// requests and notifications it sends (by default: answered and dropped as no one asks).
    init(_ entry: MCPServerEntry, logPath: String, inbound: MCPInbound? = nil) throws(ToolServerFailure) {
        name = entry.name
        self.inbound = inbound ?? MCPInbound(server: entry.name, answerer: nil)
        // Close-on-exec from the start (ProcessSpawn.pipe), so that no child another thread starts
        // meanwhile (another server, an editor) inherits an end and keeps this pipe open; the
        // spawn's dup2 gives this child its own copies.
        guard let toChild = ProcessSpawn.pipe() else { throw .noPipe }
        guard let fromChild = ProcessSpawn.pipe() else {
            Self.closeDescriptor(toChild.read)
            Self.closeDescriptor(toChild.write)
            throw .noPipe
        }
        let log = open(logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild.read, 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild.write, 1)
        if log >= 0 {
            posix_spawn_file_actions_adddup2(&actions, log, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        let spawned = ProcessSpawn.spawn(
            [entry.command] + entry.arguments, actions: &actions,
            environment: Self.environment(adding: entry.environment), searchPath: !entry.command.contains("/"),
            ownProcessGroup: true)
        Self.closeDescriptor(toChild.read)
        Self.closeDescriptor(fromChild.write)
        if log >= 0 { Self.closeDescriptor(log) }
        switch spawned {
        case .success(let child):
            pid = child
        case .failure(let failure):
            Self.closeDescriptor(toChild.write)
            Self.closeDescriptor(fromChild.read)
            throw .couldNotStart(command: entry.command, reason: String(cString: strerror(failure.code)))
        }
        input = toChild.write
        let output = fromChild.read
        DispatchQueue.global().async { [self] in readLoop(output) }
    }

    /// Only once the read loop has ended (it holds the connection): a connection dropped without
    /// `close()` still closes its input and does not leave its child running.
    deinit {
        let open = state.withLock { state -> Bool in
            defer { state.reaped = true }
            return !state.reaped
        }
        guard open else { return }
        Self.closeDescriptor(input)
        kill(-pid, SIGKILL)
        let pid = pid
        DispatchQueue.global().async { _ = ProcessSpawn.wait(pid) }
    }

    /// Sends a request and waits for its result, at most its timeout.
    func request(_ request: MCPRequest) async -> Result<JSONValue, MCPRequestError> {
        let timeout = request.timeout
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ended = state.withLock { state -> ToolServerFailure? in
                    if let ended = state.ended { return ended }
                    state.pending[id] = continuation
                    return nil
                }
                if let ended {
                    continuation.resume(returning: .failure(.failed(ended)))
                    return
                }
                guard send(MCPMessage.request(id: id, method: request.method, params: request.params)) else {
                    finish(id, .failure(.failed(.notWritable)))
                    return
                }
                if Task.isCancelled { giveUp(id, .cancelled) }
                // A subscription waits until it is cancelled.
                guard timeout.isFinite else { return }
                timers.asyncAfter(deadline: .now() + timeout) { [self] in giveUp(id, .noAnswer(seconds: timeout)) }
            }
        } onCancel: {
            giveUp(id, .cancelled)
        }
    }

    /// Sends a notification.
    func notify(_ method: String, params: JSONValue) {
        _ = send(MCPMessage.notification(method, params: params))
    }

    /// `stop()` on a queue of its own, so that waiting for the child blocks no thread of
    /// Swift's cooperative pool.
    func close() async {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [self] in
                stop()
                continuation.resume()
            }
        }
    }

    /// Ends the child within 3 s: closes its input (a server ends at the end of its input), then
    /// sends SIGTERM after 1 s and SIGKILL after 2 s more; every request still waiting fails.
    /// Blocks while it waits.
    private func stop() {
        guard let running = release() else { return }
        Self.end(running)
    }

    /// As this process ends: closes the child's input, as `close()` does, without waiting for
    /// the child to end; the child if it is still running (for `ProcessSpawn.endAfterExit`).
    func closeAtExit() async -> pid_t? {
        release()
    }

    /// Closes the child's input and fails every request still waiting, once; the child while it
    /// has not ended (nil once released before, or ended and reaped).
    private func release() -> pid_t? {
        let first = state.withLock { state -> Bool in
            defer { state.reaped = true }
            return !state.reaped
        }
        guard first else { return nil }
        writing.withLock { _ in Self.closeDescriptor(input) }
        fail(all: .stopped)
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == pid ? nil : pid
    }

    /// Ends child `pid` whose input is closed within 3 s: waits 1 s for it to end, then sends
    /// its process group SIGTERM (a launcher such as `npx` or `uvx` runs the real server as its
    /// child), waits 2 s more, then sends SIGKILL. Blocks while it waits.
    static func end(_ pid: pid_t) {
        for (signal, wait) in [(Int32(0), terminateAfter), (SIGTERM, killAfter)] {
            if signal != 0 { kill(-pid, signal) }
            if reap(pid, within: wait) { return }
        }
        kill(-pid, SIGKILL)
        _ = ProcessSpawn.wait(pid)
    }

    /// How long a child whose input is closed has to end before SIGTERM, and then before
    /// SIGKILL, in seconds.
    static let terminateAfter = 1.0
    static let killAfter = 2.0

    /// Gives up the request `id` if it is still waiting, failing it with `failure`, and tells
    /// the server.
    private func giveUp(_ id: Int, _ failure: ToolServerFailure) {
        guard finish(id, .failure(.failed(failure))) else { return }
        _ = send(MCPMessage.cancelled(id, reason: MCPMessage.reason(failure)))
    }

    /// Hands the request `id` its result; false if it was no longer waiting.
    @discardableResult
    private func finish(_ id: Int, _ result: Result<JSONValue, MCPRequestError>) -> Bool {
        guard let continuation = state.withLock({ $0.pending.removeValue(forKey: id) }) else { return false }
        continuation.resume(returning: result)
        return true
    }

    private func fail(all failure: ToolServerFailure) {
        let waiting = state.withLock { state in
            if state.ended == nil { state.ended = failure }
            defer { state.pending = [:] }
            return Array(state.pending.values)
        }
        for continuation in waiting { continuation.resume(returning: .failure(.failed(failure))) }
    }

    /// Writes `message` as one line; false if the server's input is closed.
    private func send(_ message: JSONValue) -> Bool {
        guard let text = message.jsonText else { return false }
        let bytes = Array(text.utf8) + [0x0A]
        return writing.withLock { _ in
            guard state.withLock({ !$0.reaped }) else { return false }
            var written = 0
            while written < bytes.count {
                let count = bytes.withUnsafeBytes {
                    write(input, $0.baseAddress.map { $0 + written }, bytes.count - written)
                }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { return false }
                written += count
            }
            return true
        }
    }

    /// Reads the server's output, a message a line, until it ends.
    private func readLoop(_ output: Int32) {
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            var start = 0
            for index in 0..<count where buffer[index] == 0x0A {
                line.append(contentsOf: buffer[start..<index])
                take(line)
                line.removeAll(keepingCapacity: true)
                start = index + 1
            }
            line.append(contentsOf: buffer[start..<count])
            if line.count > Self.lineLimit {
                fail(all: .messageTooLong(megabytes: Self.lineLimit / 1_048_576))
                break
            }
        }
        Self.closeDescriptor(output)
        fail(all: .ended)
    }

    /// Handles one line: a response, a request of the server's, or a notification. A line that
    /// is not a JSON-RPC message is ignored.
    private func take(_ line: [UInt8]) {
        guard let value = try? JSONParser.parse(line), let message = MCPMessage(value) else { return }
        switch message {
        case .response(let id, let result):
            finish(id, result.mapError { .rpc($0, status: nil) })
        case .request(let id, let method, let params):
            let inbound = inbound
            Task { [self] in _ = send(MCPMessage.answer(await inbound.answer(method, params: params), id: id)) }
        case .notification(let method, let params):
            inbound.notification(method, params: params)
        }
    }

    /// Waits up to `seconds` for `pid` to end; true if it did (and was reaped).
    private static func reap(_ pid: pid_t, within seconds: Double) -> Bool {
        var waited = 0.0
        while waited < seconds {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid || (result < 0 && errno == ECHILD) { return true }
            usleep(20_000)
            waited += 0.02
        }
        return false
    }

    /// What of this process's environment a server inherits: what a program needs to run and
    /// find its files, never chat's own settings or API keys (`OPENAI_API_KEY` and the like go
    /// to a server only when its entry's `env` names them).
    static let inherited: Set<String> = [
        "HOME", "LOGNAME", "USER", "PATH", "SHELL", "TERM", "LANG", "TMPDIR", "TZ", "XDG_RUNTIME_DIR",
    ]

    /// The server's environment as `NAME=value` entries: the inherited variables of this
    /// process's environment (and its `LC_*` ones), with `added` set over them.
    private static func environment(adding added: [String: String]) -> [String] {
        var entries: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if added[name] == nil, inherited.contains(name) || name.hasPrefix("LC_") { entries.append(text) }
            pointer += 1
        }
        return entries + added.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    private static func closeDescriptor(_ descriptor: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }

    /// The longest message read: 64 MB.
    static let lineLimit = 64 * 1_048_576
}
