import Synchronization

/// Whether the model may search the web on the provider's server (`web_search`, `--web`); the
/// REPL's `/web on|off` changes it. One switch for the run: each request offers the search tool
/// by it, as it is made.
public final class WebSearchSwitch: Sendable {
    private let on: Mutex<Bool>

    public init(on: Bool) {
        self.on = Mutex(on)
    }

    /// Whether the search tool is offered.
    public var isOn: Bool {
        on.withLock { $0 }
    }

    /// Offers the search tool, or stops offering it.
    public func set(_ on: Bool) {
        self.on.withLock { $0 = on }
    }
}
