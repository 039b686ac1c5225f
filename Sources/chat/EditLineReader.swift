import CTerminal
import ChatPresentation
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `LineReader` on a terminal, with libedit: cursor keys, Home/End, word delete, Up/Down
/// recall, history kept across runs, Tab completion, bracketed paste. libedit blocks while the
/// person types, so every call into it runs on a queue of the reader's own, never on Swift's
/// cooperative pool.
final class EditLineReader: LineReader, @unchecked Sendable {
    // `@unchecked`: `editor` is only used by jobs on `queue`, one at a time.
    private let editor: OpaquePointer
    /// Where the editor writes (see `init`).
    private let output: Int32
    private let historyPath: String?
    private let queue = DispatchQueue(label: "chat.line-editor")
    /// Kept alive for libedit's completion callback, which gets it as its context.
    private let completer: Completer

    /// What Tab offers for the line before the cursor.
    private final class Completer: Sendable {
        let complete: @Sendable (String) -> [String]
        init(_ complete: @escaping @Sendable (String) -> [String]) { self.complete = complete }
    }

    /// Opens libedit; nil when it cannot start. It reads the terminal on stdin and writes the
    /// prompt, the echo and its escape codes to `output` (stdout, or the terminal when stdout is
    /// redirected: see `terminalOutput`). `historyPath` (nil: none kept) is loaded now and
    /// written, mode 0600, after each line; `completer` says what Tab offers for the text before
    /// the cursor.
    init?(output: Int32 = 1, historyPath: String?, completer: @escaping @Sendable (String) -> [String]) {
        guard let editor = cterm_editor_open("chat", 1000, output) else {
            if output > 2 { close(output) }
            return nil
        }
        self.editor = editor
        self.output = output
        self.historyPath = historyPath
        self.completer = Completer(completer)
        cterm_editor_set_completer(
            editor,
            { context, line, count in
                guard let context, let line, let count else { return nil }
                let words = Unmanaged<Completer>.fromOpaque(context).takeUnretainedValue()
                    .complete(String(cString: line))
                count.pointee = Int32(words.count)
                guard !words.isEmpty,
                    let array = malloc(words.count * MemoryLayout<UnsafeMutablePointer<CChar>?>.stride)?
                        .assumingMemoryBound(to: UnsafeMutablePointer<CChar>?.self)
                else {
                    count.pointee = 0
                    return nil
                }
                for (index, word) in words.enumerated() { array[index] = strdup(word) }
                return array
            }, Unmanaged.passUnretained(self.completer).toOpaque())
        if let historyPath { _ = cterm_editor_history_load(editor, historyPath) }
    }

    deinit {
        cterm_editor_close(editor)
        if output > 2 { close(output) }
    }

    /// Where the line editor should write for a REPL that reads the terminal: stdout when it is
    /// the terminal; otherwise (`chat | tee log`, `chat > file`) the terminal itself, so the
    /// prompt and the editor's escape codes never reach the file, or stderr if only that is a
    /// terminal; nil when none is.
    static func terminalOutput() -> Int32? {
        if isatty(1) == 1 { return 1 }
        let tty = open("/dev/tty", O_WRONLY | O_CLOEXEC)
        if tty >= 0 { return tty }
        return isatty(2) == 1 ? 2 : nil
    }

    func readLine(prompt: String) async -> LineInput {
        await readLine(prompt: prompt, initial: nil)
    }

    /// Reads a line that starts as `initial` (if any), for the person to edit.
    func readLine(prompt: String, initial: String?) async -> LineInput {
        await withCheckedContinuation { continuation in
            queue.async { [self] in continuation.resume(returning: read(prompt: prompt, initial: initial)) }
        }
    }

    /// On the queue: libedit's read (with no `initial`, a plain read).
    private func read(prompt: String, initial: String?) -> LineInput {
        var status: Int32 = 0
        guard let line = cterm_editor_read_initial(editor, prompt, initial, &status) else {
            // Leave the prompt's line so what follows starts on a line of its own.
            _ = write(output, "\n", 1)
            switch status {
            case 0: return .end
            case SIGINT: return .interrupted
            default: return .signalled(status)
            }
        }
        return .line(String(cString: line))
    }

    var readsTerminal: Bool { true }

    /// Waits until the history file is written: `/exit` right after must not cut the write short
    /// (the file would be left with a few lines, or none).
    func remember(_ line: String) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            queue.async { [self] in
                save(line)
                continuation.resume()
            }
        }
    }

    /// On the queue: adds `line` to the history and writes the history file, mode 0600.
    private func save(_ line: String) {
        cterm_editor_history_add(editor, line)
        guard let historyPath else { return }
        let fd = open(historyPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }
        _ = cterm_editor_history_save(editor, historyPath)
        chmod(historyPath, 0o600)
    }
}
