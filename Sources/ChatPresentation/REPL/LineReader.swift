/// Reads the person's lines: libedit on a terminal, plain lines from a pipe, a script in tests.
/// A reader that blocks does so on a thread of its own, never on the caller's.
public protocol LineReader: AnyObject {
    /// Shows `prompt` (where there is a person to see it) and reads one line.
    func readLine(prompt: String) async -> LineInput
    /// Remembers a line the person entered, for Up-arrow recall (and keeps it, where the reader
    /// keeps a history file: when this returns, it is written).
    func remember(_ line: String) async
    /// Whether a person types the lines, on a terminal (who can be asked before the session ends).
    var readsTerminal: Bool { get }
}

extension LineReader {
    public var readsTerminal: Bool { false }
}
