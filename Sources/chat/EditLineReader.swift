import CTerminal
import ChatPresentation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `LineReader` on a terminal, with libedit: cursor keys, Home/End, word delete, Up/Down
/// recall, history kept across runs, Tab completion of slash commands, bracketed paste.
final class EditLineReader: LineReader {
    private let editor: OpaquePointer
    private let historyPath: String?

    /// Opens libedit; nil when it cannot start. `historyPath` (nil: none kept) is loaded now
    /// and written, mode 0600, after each line.
    init?(historyPath: String?, completions: [String]) {
        guard let editor = cterm_editor_open("chat", 1000) else { return nil }
        self.editor = editor
        self.historyPath = historyPath
        var pointers = completions.map { strdup($0) }
        pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress?.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) {
                cterm_editor_set_completions(editor, $0, Int32(buffer.count))
            }
        }
        pointers.forEach { free($0) }
        if let historyPath { _ = cterm_editor_history_load(editor, historyPath) }
    }

    deinit {
        cterm_editor_close(editor)
    }

    func readLine(prompt: String) -> LineInput {
        var status: Int32 = 0
        guard let line = cterm_editor_read(editor, prompt, &status) else {
            // Leave the prompt's line so what follows starts on a line of its own.
            _ = write(1, "\n", 1)
            return status == 1 ? .interrupted : .end
        }
        return .line(String(cString: line))
    }

    func remember(_ line: String) {
        cterm_editor_history_add(editor, line)
        guard let historyPath else { return }
        let fd = open(historyPath, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        if fd >= 0 { close(fd) }
        _ = cterm_editor_history_save(editor, historyPath)
        chmod(historyPath, 0o600)
    }
}
