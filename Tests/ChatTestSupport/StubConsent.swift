import ChatDomain
import Synchronization

/// A consent that answers each call with the next of `decisions` (the last repeats) and each
/// question to go on with `goOn`, recording what it was asked.
public final class StubConsent: ToolConsent {
    private let state: Mutex<(decisions: [ToolConsentDecision], asked: [String], continues: [Int])>
    public let goOn: Bool

    public init(_ decisions: [ToolConsentDecision] = [.run], goOn: Bool = false) {
        state = Mutex((decisions, [], []))
        self.goOn = goOn
    }

    /// The ids of the calls it was asked about, in order.
    public var asked: [String] { state.withLock { $0.asked } }
    /// The round counts it was asked to go on after.
    public var continues: [Int] { state.withLock { $0.continues } }

    public func decide(_ call: ToolCall, tool: ToolDefinition) async -> ToolConsentDecision {
        state.withLock { state in
            state.asked.append(call.id)
            let decision = state.decisions.first ?? .decline
            if state.decisions.count > 1 { state.decisions.removeFirst() }
            return decision
        }
    }

    public func continueAfter(rounds: Int) async -> Bool {
        state.withLock { $0.continues.append(rounds) }
        return goOn
    }
}
