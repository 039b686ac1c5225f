import ChatDomain
import Synchronization

/// A `GPTRepository` that plays scripted answers and records every request.
public final class StubGPTRepository: GPTRepository {
    /// One scripted answer.
    public enum Script: Sendable {
        /// Yields the events, then ends: normally when `failure` is nil, else by throwing it.
        case answer([ChatEvent], failure: ChatError? = nil)
        /// Yields the events, then waits until the consumer cancels (or `abort`).
        case hang([ChatEvent])
    }

    private struct State {
        var scripts: [Script]
        var requests: [ChatRequest] = []
        var models: Result<[ModelInfo], ChatError> = .success([])
        var aborted = false
    }

    private let state: Mutex<State>

    /// Plays `scripts` in order, one per request; the last one repeats.
    public init(_ scripts: [Script]) {
        state = Mutex(State(scripts: scripts))
    }

    /// A repository whose every answer is `text`, in one piece per word.
    public convenience init(answering text: String) {
        let pieces = text.split(separator: " ", omittingEmptySubsequences: false)
        let events = pieces.enumerated().map { index, word in
            ChatEvent.text(index == 0 ? String(word) : " " + word)
        }
        self.init([.answer(events + [.finished(reason: "stop")])])
    }

    /// Every request received, in order.
    public var requests: [ChatRequest] {
        state.withLock { $0.requests }
    }

    /// What `listModels` returns.
    public func setModels(_ result: Result<[ModelInfo], ChatError>) {
        state.withLock { $0.models = result }
    }

    public func listModels() async -> Result<[ModelInfo], ChatError> {
        state.withLock { $0.models }
    }

    public func streamChat(_ request: ChatRequest) -> any AnswerStream {
        let script = state.withLock { state -> Script? in
            state.requests.append(request)
            guard let first = state.scripts.first else { return nil }
            if state.scripts.count > 1 { state.scripts.removeFirst() }
            return first
        }
        return ScriptedAnswer(script: script, repository: self)
    }

    /// Ends every hanging answer, now and to come, as cancelled: a test harness's last resort
    /// when the code under test fails to stop one.
    public func abort() {
        state.withLock { $0.aborted = true }
    }

    fileprivate var aborted: Bool {
        state.withLock { $0.aborted }
    }
}

/// One answer `StubGPTRepository` plays.
private struct ScriptedAnswer: AnswerStream {
    let script: StubGPTRepository.Script?
    let repository: StubGPTRepository

    func read(_ onEvent: (ChatEvent) -> Void) async throws(ChatError) {
        switch script {
        case nil:
            throw .malformedResponse("no scripted answer")
        case .answer(let events, let failure)?:
            for event in events { onEvent(event) }
            if let failure { throw failure }
        case .hang(let events)?:
            for event in events { onEvent(event) }
            while !Task.isCancelled && !repository.aborted {
                try? await Task.sleep(for: .milliseconds(5))
            }
            throw .cancelled
        }
    }
}
