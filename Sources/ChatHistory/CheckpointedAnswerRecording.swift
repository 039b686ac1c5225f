import ChatDomain
import ChatSystem
import Synchronization

/// Stores an answer while it streams, so a crash, a `kill -9` or a closed terminal loses at most
/// about `interval` of it: a write at most every `interval` while text arrives — also when the
/// stream then stalls, as each write is timed from the first event it carries — and one at the
/// end. Writes run on the store's queue; `add` only takes the event, so the answer's reading
/// never waits for the disk.
final class CheckpointedAnswerRecording: AnswerRecording {
    private struct State {
        /// The answer so far, built by adding each event (a copy of the caller's would share its
        /// text, whose next append would then copy all of it: once per network read).
        var answer = ChatMessage(role: .assistant, content: "", state: .interrupted)
        /// Whether the stored row holds everything in `answer`.
        var stored = true
        /// Whether a checkpoint is due on the queue already.
        var scheduled = false
        var finished = false
        var lastWrite: ContinuousClock.Instant
    }

    private let state: Mutex<State>
    private let queue: HistoryQueue
    private let conversationID: String
    private let settings: ChatSettings
    private let systemPrompt: String?
    private let interval: Duration
    private let clock = ContinuousClock()

    init(
        queue: HistoryQueue, conversationID: String, settings: ChatSettings, systemPrompt: String?,
        interval: Duration
    ) {
        self.queue = queue
        self.conversationID = conversationID
        self.settings = settings
        self.systemPrompt = systemPrompt
        self.interval = interval
        state = Mutex(State(lastWrite: clock.now))
    }

    func add(_ event: ChatEvent) {
        let delay = state.withLock { state -> Duration? in
            state.answer.add(event)
            state.stored = false
            guard !state.scheduled, !state.finished else { return nil }
            state.scheduled = true
            return max(state.lastWrite + interval - clock.now, .zero)
        }
        guard let delay else { return }
        queue.later(delay) { [self] in checkpoint() }
    }

    func finish(_ answer: ChatMessage) async -> ChatMessage {
        state.withLock { $0.finished = true }
        // After any checkpoint already queued, which may have given the answer its row.
        return await queue.onQueue { [self] in
            var final = answer
            final.storageID = state.withLock { $0.answer.storageID }
            write(&final, last: true)
            return final
        }
    }

    /// On the store's queue: stores the answer as it is now, unless it ended meanwhile.
    private func checkpoint() {
        let snapshot = state.withLock { state -> ChatMessage? in
            state.scheduled = false
            guard !state.finished, !state.stored else { return nil }
            state.stored = true
            state.lastWrite = clock.now
            return state.answer
        }
        guard var answer = snapshot else { return }
        write(&answer)
        if let id = answer.storageID { state.withLock { $0.answer.storageID = id } }
    }

    /// On the store's queue: a new row the first time there is text (or a complete answer), an
    /// update after; the `last` write also keeps the search index up (`SearchIndex.keepUp`). A
    /// write that fails waits in memory for the next (`PendingWrites`); the answer's id,
    /// provisional until then, stands for its row either way.
    private func write(_ answer: inout ChatMessage, last: Bool = false) {
        let index: [PendingWrites.Write] = last ? [.searchIndex] : []
        if let id = answer.storageID {
            _ = queue.storeNow([.update(answer, id: id, at: WallClock.now())] + index, patience: .long)
        } else if answer.hasAnswerContent || answer.state == .complete {
            let batch = MessageBatch(
                conversationID: conversationID, messages: [answer], settings: settings, systemPrompt: systemPrompt,
                at: WallClock.now())
            answer.storageID = queue.storeNow([.messages(batch, ids: [])] + index, patience: .long).first?.first
        } else if last {
            _ = queue.storeNow(index, patience: .long)
        }
    }
}
