import Synchronization

/// Lets signal handling reach the REPL from another thread: Ctrl-C stops the answer in flight
/// (and nothing else); SIGTERM and SIGHUP stop it and end the session.
public final class SessionControl: Sendable {
    private struct State {
        var cancelAnswer: (@Sendable () -> Void)?
        var exitStatus: Int32?
    }

    private let state = Mutex(State())

    /// Creates a control with no answer in flight.
    public init() {}

    /// Stops the answer in flight; returns false when there is none (Ctrl-C at the prompt).
    @discardableResult
    public func interruptAnswer() -> Bool {
        let cancel = state.withLock { $0.cancelAnswer }
        cancel?()
        return cancel != nil
    }

    /// Ends the session with `status` after stopping any answer in flight.
    public func requestExit(status: Int32) {
        state.withLock { $0.exitStatus = status }
        interruptAnswer()
    }

    /// The status a signal asked the session to end with, if any.
    public var exitStatus: Int32? {
        state.withLock { $0.exitStatus }
    }

    /// Registers how to stop the answer that is starting; stops it at once if the session was
    /// already asked to end (a signal that came before the answer could be stopped).
    func answerStarted(cancel: @escaping @Sendable () -> Void) {
        let ending = state.withLock { state -> Bool in
            state.cancelAnswer = cancel
            return state.exitStatus != nil
        }
        if ending { cancel() }
    }

    func answerEnded() {
        state.withLock { $0.cancelAnswer = nil }
    }
}
