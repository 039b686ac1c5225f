import Foundation

/// A program running in a real pseudo-terminal under tmux: keys in, screen out.
struct TmuxSession {
    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")
    }

    private let socket = "chat-tests-\(UUID().uuidString.prefix(8))"
    let name = "s"

    /// Starts `program` with `arguments` in a `width`×30 terminal. A shell around it reports its
    /// exit status on the screen; it ignores SIGINT itself, as an interactive shell would, so
    /// Ctrl-C reaches only the program. `then` follows the command in the shell's line, e.g.
    /// `| tee '/tmp/log'` or `> '/tmp/out'` (no double quotes in it).
    init(
        program: String, arguments: [String], environment: [String: String], width: Int = 120, then: String = ""
    ) throws {
        let exports = environment.map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        let line = ([program] + arguments).map { "'\($0)'" }.joined(separator: " ") + (then.isEmpty ? "" : " " + then)
        let command = "env -i \(exports) sh -c \"trap '' INT; \(line); echo exit status \\$?; sleep 60\""
        // The tmux server this starts outlives the call: give it no pipe to hold open.
        try tmux(["new-session", "-d", "-s", name, "-x", "\(width)", "-y", "30", command], capture: false)
    }

    /// Types `keys` (tmux key names such as `Enter`, `C-c`, `Up`).
    func send(_ keys: String...) throws {
        try tmux(["send-keys", "-t", name] + keys)
    }

    /// Types `text` literally.
    func type(_ text: String) throws {
        try tmux(["send-keys", "-t", name, "-l", text])
    }

    /// What the screen shows.
    func screen() -> String {
        (try? tmux(["capture-pane", "-t", name, "-p"])) ?? ""
    }

    /// Every line since the start, the scrollback included; with `joined`, rows the terminal
    /// wrapped are joined into the line that was written.
    func history(joined: Bool = false) -> [String] {
        let text = (try? tmux(["capture-pane", "-t", name, "-p", "-S", "-"] + (joined ? ["-J"] : []))) ?? ""
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
        while lines.last == "" { lines.removeLast() }
        return lines
    }

    /// What the screen shows, with its styles as escape sequences.
    func screenWithStyles() -> String {
        (try? tmux(["capture-pane", "-t", name, "-p", "-e"])) ?? ""
    }

    /// Lets programs set tmux's clipboard through OSC 52 (`set-clipboard on`).
    func acceptClipboard() throws {
        try tmux(["set-option", "-g", "set-clipboard", "on"])
    }

    /// What tmux's clipboard (its top paste buffer) holds.
    func clipboard() -> String {
        (try? tmux(["show-buffer"])) ?? ""
    }

    /// Makes the terminal `width` columns wide.
    func resize(width: Int) throws {
        try tmux(["resize-window", "-t", name, "-x", "\(width)"])
    }

    /// Waits until the screen satisfies `condition` (at most `timeout` seconds).
    func waitForScreen(timeout: Double = 30, _ condition: (String) -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if condition(screen()) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// The exit status the program reported on the screen once it ended (at most `timeout` s).
    func exitStatus(timeout: Double = 30) async -> Int? {
        var status: Int?
        _ = await waitForScreen(timeout: timeout) { screen in
            guard let range = screen.range(of: "exit status ") else { return false }
            status = Int(screen[range.upperBound...].prefix { $0.isNumber })
            return status != nil
        }
        return status
    }

    /// Ends the session: the program and the shell around it first (their process group), since
    /// tmux does not always end a pane's processes on kill-server, and a REPL left waiting for a
    /// key outlives the tests; then the tmux server.
    func kill() {
        let pane = (try? tmux(["display-message", "-p", "-t", name, "#{pane_pid}"])) ?? ""
        if let pid = pid_t(pane.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1 {
            _ = Foundation.kill(-pid, SIGKILL)
        }
        _ = try? tmux(["kill-server"])
    }

    /// Runs tmux with posix_spawn and waitpid: Foundation's Process waits for every inheritor of
    /// its exit-watching descriptor, and the tmux server that `new-session` starts keeps it.
    @discardableResult
    private func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        var pipeEnds: [Int32] = [-1, -1]
        guard pipe(&pipeEnds) == 0 else { throw POSIXError(.EMFILE) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if capture {
            posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        // The tmux server this may start outlives the call: it must hold nothing of the tests.
        ChatBinary.closeTheRest(&actions)
        let argv = (["/usr/bin/tmux", "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/usr/bin/tmux", &actions, nil, argv, environ)
        close(pipeEnds[1])
        defer { close(pipeEnds[0]) }
        guard spawned == 0 else { throw POSIXError(.ENOENT) }
        var output = Data()
        if capture {
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = read(pipeEnds[0], &buffer, buffer.count)
                if count <= 0 { break }
                output.append(contentsOf: buffer[0..<count])
            }
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return String(decoding: output, as: UTF8.self)
    }
}
