/// The terminal a server's question is asked on (`/dev/tty`, as tool calls are asked about).
public protocol ServerQuestionTerminal: Sendable {
    /// Writes `question` and reads one of `keys` (Enter or Escape as `n` when `keys` holds it);
    /// nil when the person stopped (Ctrl-C, Ctrl-D) or the task was cancelled.
    func key(_ question: String, among keys: String) async -> Character?
    /// A line the person typed after `prompt`, starting from `initial`; nil when they stopped.
    func line(_ prompt: String, initial: String) async -> String?
    /// Writes `text` on the terminal.
    func say(_ text: String) async
    /// Opens `url` in the person's browser: nil when it did, else why not (there is none, or it
    /// failed), in words.
    func open(_ url: String) async -> String?
}
