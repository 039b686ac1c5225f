import Synchronization

/// A flag that is set once, shared by every copy of what holds it (a provider's "told the person
/// this run").
final class OnceFlag: Sendable {
    private let isSet = Mutex(false)

    /// Sets the flag; true the first time only.
    func set() -> Bool {
        isSet.withLock { value in
            defer { value = true }
            return !value
        }
    }
}
