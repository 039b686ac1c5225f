import ChatPresentation
import ChatSystem
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ShellTerminal` on the controlling terminal: the question is written to it and answered with
/// one key (read with the terminal in raw mode, so Ctrl-C is a key there, not a signal), the
/// command is edited with libedit, and it runs in `$SHELL` (else `/bin/sh`) with the terminal as
/// its standard input and output. Blocking work runs on a queue of its own.
final class TTYShellTerminal: ShellTerminal, @unchecked Sendable {
    // `@unchecked`: `tty` is only used by jobs on `queue`, one at a time; `shell` never changes;
    // `editor` is only used by `edit`, which the presenter calls one at a time.
    private let tty: Int32
    private let shell: String
    private let queue = DispatchQueue(label: "chat.shell-terminal")
    /// Written to when the task asking is cancelled (a signal arrived): the wait for a key ends.
    private let wake: (read: Int32, write: Int32)
    /// The line editor for `e`, opened when first needed and kept: closing it puts back the
    /// terminal modes it found, which must not happen while a question waits for one key.
    private var editor: EditLineReader?

    /// The terminal, if there is one to ask on (`/dev/tty`); standard input is pointed at it too,
    /// so the line editor and the command read from it when the request came through a pipe.
    init?(environment: [String: String]) {
        let fd = open("/dev/tty", O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        if isatty(0) != 1 { _ = dup2(fd, 0) }
        tty = fd
        guard let ends = ProcessSpawn.pipe() else {
            close(fd)
            return nil
        }
        wake = ends
        let candidate = environment["SHELL"] ?? ""
        shell = candidate.hasPrefix("/") && access(candidate, X_OK) == 0 ? candidate : "/bin/sh"
    }

    deinit {
        close(tty)
        close(wake.read)
        close(wake.write)
    }

    /// Cancelling the task (SIGTERM, SIGHUP) ends the wait as Ctrl-C would.
    func choose(_ question: String) async -> ShellChoice {
        switch await key(question, among: "yedn") {
        case "y": return .run
        case "e": return .edit
        case "d": return .describe
        case "n": return .decline
        default: return .interrupt
        }
    }

    /// Writes `question` on the terminal and reads keys until one of `keys` (lower case; a
    /// capital one too), or Enter or Escape when `keys` holds `n` (as `n`); nil for Ctrl-C,
    /// Ctrl-D, or the task cancelled (SIGTERM, SIGHUP).
    func key(_ question: String, among keys: String) async -> Character? {
        let wake = wake.write
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                queue.async { [self] in continuation.resume(returning: keyNow(question, among: keys)) }
            }
        } onCancel: {
            var byte: UInt8 = 1
            _ = write(wake, &byte, 1)
        }
    }

    func edit(_ command: String) async -> String? {
        await edit(command, prompt: "edit › ")
    }

    /// `text` after the person edited it in the line editor after `prompt`; nil when they stopped.
    func edit(_ text: String, prompt: String) async -> String? {
        if editor == nil, let output = EditLineReader.terminalOutput() {
            editor = EditLineReader(output: output, historyPath: nil, completer: { _ in [] })
        }
        guard let editor else { return nil }
        switch await editor.readLine(prompt: prompt, initial: text) {
        case .line(let line): return line
        case .end, .interrupted, .signalled: return nil
        }
    }

    func run(_ command: String) async -> Int32 {
        let shell = shell
        return await withCheckedContinuation { continuation in
            queue.async {
                switch ProcessSpawn.spawn([shell, "-c", command], actions: nil) {
                case .success(let pid):
                    continuation.resume(returning: ProcessSpawn.wait(pid))
                case .failure(let failure):
                    // As a shell says a command it cannot start: one line, status 127.
                    let line = "chat: error: could not start \(shell): \(String(cString: strerror(failure.code)))\n"
                    _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
                    continuation.resume(returning: 127)
                }
            }
        }
    }

    /// On the queue: writes `question` and reads keys until one of `keys`. Keys typed before the
    /// question is shown are dropped: an early `y` must not run a command not yet seen.
    private func keyNow(_ question: String, among keys: String) -> Character? {
        var saved = termios()
        let raw = tcgetattr(tty, &saved) == 0
        if raw {
            var settings = saved
            settings.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG)
            withUnsafeMutableBytes(of: &settings.c_cc) { characters in
                characters[Int(VMIN)] = 1
                characters[Int(VTIME)] = 0
            }
            tcsetattr(tty, TCSAFLUSH, &settings)
        }
        defer { if raw { tcsetattr(tty, TCSANOW, &saved) } }
        say(question)
        while true {
            var waiting = [
                pollfd(fd: tty, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&waiting, 2, -1) < 0 {
                if errno == EINTR { continue }
                say("\n")
                return nil
            }
            if waiting[1].revents != 0 {
                say("\n")
                return nil
            }
            var byte: UInt8 = 0
            let count = read(tty, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else {
                say("\n")
                return nil
            }
            switch byte {
            case 0x03, 0x04:
                say("^C\n")
                return nil
            case 0x0D, 0x0A, 0x1B:
                // Enter and Escape say no, when no is one of the answers (a `where` here would
                // apply to Escape alone).
                guard keys.contains("n") else { continue }
                say("n\n")
                return "n"
            case 0x41...0x5A, 0x61...0x7A:
                let key = Character(Unicode.Scalar(byte | 0x20))
                guard keys.contains(key) else { continue }
                say("\(key)\n")
                return key
            default:
                continue
            }
        }
    }

    func say(_ text: String) {
        _ = text.withCString { write(tty, $0, strlen($0)) }
    }
}
