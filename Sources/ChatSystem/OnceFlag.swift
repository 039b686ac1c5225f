import Synchronization

/// A flag that is set once, shared by every copy of what holds it (a provider's "told the person
/// this run").
package final class OnceFlag: Sendable {
    package init() {}

    private let isSet = Mutex(false)

    /// Sets the flag; true the first time only.
    package func set() -> Bool {
        isSet.withLock { value in
            defer { value = true }
            return !value
        }
    }
}
