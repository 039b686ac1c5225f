import ChatDomain
import ChatSystem
import Synchronization

/// Stores an answer while it streams, so a crash, a `kill -9` or a closed terminal loses at most
/// about `interval` of it: a timer armed when the recording starts (the request on its way)
/// looks every `interval` until the answer ends and writes what arrived since the last write —
/// also when the stream then stalls — and one write at the end. Writes run on the store's queue;
/// `add` only takes the event (it arms no timer, so the first piece, on its way to the screen,
/// wakes no other thread), and the answer's reading never waits for the disk.
final class CheckpointedAnswerRecording: AnswerRecording {
    private struct State {
        /// The answer so far, built by adding each event (a copy of the caller's would share its
        /// text, whose next append would then copy all of it: once per network read).
        var answer = ChatMessage(role: .assistant, content: "", state: .interrupted)
        /// Whether the stored row holds everything in `answer`.
        var stored = true
        var finished = false
    }

    private let state: Mutex<State>
    private let queue: HistoryQueue
    private let conversationID: String
    private let settings: ChatSettings
    private let systemPrompt: String?
    private let interval: Duration

    init(
        queue: HistoryQueue, conversationID: String, settings: ChatSettings, systemPrompt: String?,
        interval: Duration
    ) {
        self.queue = queue
        self.conversationID = conversationID
        self.settings = settings
        self.systemPrompt = systemPrompt
        self.interval = interval
        state = Mutex(State())
        lookLater()
    }

    func add(_ event: ChatEvent) {
        state.withLock { state in
            state.answer.add(event)
            state.stored = false
        }
    }

    /// The next look, in `interval`: while the answer has not ended and its recording is kept
    /// (one that failed before any text is let go unfinished).
    private func lookLater() {
        queue.later(interval) { [weak self] in
            guard let self, checkpoint() else { return }
            lookLater()
        }
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

    /// On the store's queue: stores the answer as it is now if that is more than is stored,
    /// unless it ended meanwhile; returns whether it goes on (another look is due).
    private func checkpoint() -> Bool {
        let (snapshot, goesOn) = state.withLock { state -> (ChatMessage?, Bool) in
            guard !state.finished else { return (nil, false) }
            guard !state.stored else { return (nil, true) }
            state.stored = true
            return (state.answer, true)
        }
        guard var answer = snapshot else { return goesOn }
        write(&answer)
        if let id = answer.storageID { state.withLock { $0.answer.storageID = id } }
        return true
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
