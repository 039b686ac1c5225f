import Synchronization

/// Whether answers show the model's reasoning (`show_reasoning`, `--hide-reasoning`); the REPL's
/// `/reasoning on|off` changes it. One switch for the run: each answer's renderer reads it when
/// the answer starts, and each request asks for reasoning text by it (a provider that can be told
/// not to send any is told). `--json` keeps its reasoning events either way.
public final class ReasoningSwitch: Sendable {
    private let shown: Mutex<Bool>

    public init(shown: Bool) {
        self.shown = Mutex(shown)
    }

    /// Whether reasoning is shown.
    public var isOn: Bool {
        shown.withLock { $0 }
    }

    /// Shows reasoning, or hides it.
    public func set(_ on: Bool) {
        shown.withLock { $0 = on }
    }
}
