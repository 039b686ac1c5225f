/// The terminal a tool call is asked about on (`/dev/tty`, as `-x` asks).
public protocol ToolConsentTerminal: Sendable {
    /// Writes `question` and reads one of `keys` (Enter or Escape as `n`); nil when the person
    /// stopped (Ctrl-C, Ctrl-D) or the task was cancelled.
    func key(_ question: String, among keys: String) async -> Character?
    /// `text` after the person edited it; nil when they stopped.
    func edit(_ text: String) async -> String?
    /// Writes `text` on the terminal.
    func say(_ text: String) async
}
