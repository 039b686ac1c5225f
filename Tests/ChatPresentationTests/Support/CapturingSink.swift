import ChatPresentation
import Synchronization

/// An `OutputSink` that records each write, for tests.
///
/// `Sendable` (its state is behind a `Mutex`) so a test can hand it to a task and read it after.
final class CapturingSink: OutputSink, Sendable {
    private struct State {
        var writes: [String] = []
        var refused: [String] = []
    }

    let isTerminal: Bool
    private let acceptedWrites: Int?
    private let state = Mutex(State())

    /// A sink that says it is a terminal when `isTerminal`. With `readerGoneAfter: n`, the first
    /// `n` writes succeed and every later one fails, as when the reader of a pipe has gone.
    init(isTerminal: Bool = false, readerGoneAfter acceptedWrites: Int? = nil) {
        self.isTerminal = isTerminal
        self.acceptedWrites = acceptedWrites
    }

    /// The writes that succeeded, one entry per call, in order.
    var writes: [String] { state.withLock { $0.writes } }

    /// Everything that was written successfully, joined.
    var text: String { writes.joined() }

    /// The writes that failed because the reader had gone, in order.
    var refused: [String] { state.withLock { $0.refused } }

    @discardableResult
    func write(_ text: String) -> Bool {
        state.withLock { state in
            if let acceptedWrites, state.writes.count >= acceptedWrites {
                state.refused.append(text)
                return false
            }
            state.writes.append(text)
            return true
        }
    }
}
