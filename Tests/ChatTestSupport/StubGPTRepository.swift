import ChatDomain
import Synchronization

/// A `GPTRepository` that plays scripted answers and records every request.
public final class StubGPTRepository: GPTRepository {
    /// One scripted answer.
    public enum Script: Sendable {
        /// Yields the events, then ends: normally when `failure` is nil, else by throwing it.
        case answer([ChatEvent], failure: ChatError? = nil)
        /// Yields the events, then waits until the consumer cancels.
        case hang([ChatEvent])
    }

    private struct State {
        var scripts: [Script]
        var requests: [ChatRequest] = []
        var models: Result<[ModelInfo], ChatError> = .success([])
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

    public func streamChat(_ request: ChatRequest) -> AsyncThrowingStream<ChatEvent, any Error> {
        let script = state.withLock { state -> Script? in
            state.requests.append(request)
            guard let first = state.scripts.first else { return nil }
            if state.scripts.count > 1 { state.scripts.removeFirst() }
            return first
        }
        let (stream, continuation) = AsyncThrowingStream<ChatEvent, any Error>.makeStream()
        guard let script else {
            continuation.finish(throwing: ChatError.malformedResponse("no scripted answer"))
            return stream
        }
        let task = Task {
            switch script {
            case .answer(let events, let failure):
                for event in events { continuation.yield(event) }
                if let failure {
                    continuation.finish(throwing: failure)
                } else {
                    continuation.finish()
                }
            case .hang(let events):
                for event in events { continuation.yield(event) }
                while !Task.isCancelled {
                    try? await Task.sleep(for: .milliseconds(5))
                }
                continuation.finish(throwing: CancellationError())
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
