import Synchronization

/// What a run (a one-shot with its tool rounds, or a REPL session) has spent, in US dollars,
/// by the costs of its answers; and its budget (`max_cost`), which the person may raise when it
/// is reached. Shared by every turn of the run.
public final class RunSpending: Sendable {
    private struct State {
        var spent = 0.0
        var limit: Double?
        /// Answers whose cost is not known (no price, or no usage reported).
        var unknown = 0
        var toldUnknown = false
    }

    private let state: Mutex<State>

    /// A run with nothing spent yet, and at most `limit` dollars to spend (nil: no budget).
    public init(limit: Double? = nil) {
        state = Mutex(State(limit: limit))
    }

    /// Dollars spent so far.
    public var spent: Double {
        state.withLock { $0.spent }
    }

    /// The budget, if there is one.
    public var limit: Double? {
        state.withLock { $0.limit }
    }

    /// Whether some answer's cost is not known (so `spent` is less than the truth).
    public var hasUnknownCosts: Bool {
        state.withLock { $0.unknown > 0 }
    }

    /// Adds an answer's cost; nil for one whose cost is not known. True the first time a cost is
    /// not known while there is a budget (the person is then told, once).
    @discardableResult
    public func add(_ cost: Double?) -> Bool {
        state.withLock { state in
            guard let cost else {
                state.unknown += 1
                guard state.limit != nil, !state.toldUnknown else { return false }
                state.toldUnknown = true
                return true
            }
            state.spent += cost
            return false
        }
    }

    /// Whether the budget is spent: what was spent, and the limit it reached.
    public var reached: (spent: Double, limit: Double)? {
        state.withLock { state in
            guard let limit = state.limit, state.spent >= limit else { return nil }
            return (state.spent, limit)
        }
    }

    /// Raises the budget to `limit`.
    public func raise(to limit: Double) {
        state.withLock { $0.limit = limit }
    }
}
