/// The terminal a suggested command is shown on: where the person answers, edits it, and where
/// it runs. Each call may wait for the person (on a thread of its own).
public protocol ShellTerminal: Sendable {
    /// Asks `question` and reads one key.
    func choose(_ question: String) async -> ShellChoice
    /// The command after the person edited it in the line editor; nil when they stopped (Ctrl-C,
    /// Ctrl-D).
    func edit(_ command: String) async -> String?
    /// Runs `command` in the person's shell with the terminal attached; its exit status (128 +
    /// the signal's number when a signal ended it).
    func run(_ command: String) async -> Int32
}
