import Synchronization

/// A value one request learns and the run's later ones read, shared by every copy of what holds
/// it (a provider's "this server wants the other form").
package final class RunMemory<Value: Sendable>: Sendable {
    private let value: Mutex<Value?>

    /// Nothing learned yet.
    package init() {
        value = Mutex(nil)
    }

    /// What was learned, if anything.
    package var learned: Value? {
        value.withLock { $0 }
    }

    /// Keeps `newValue` for the rest of the run.
    package func learn(_ newValue: Value) {
        value.withLock { $0 = newValue }
    }
}
