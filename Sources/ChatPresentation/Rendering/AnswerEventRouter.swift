import ChatDomain

/// What every renderer does with an answer's events but show its text: reasoning and retry notes
/// go to the notes stream (`AnswerNotes`), text goes to the renderer's own way of showing it, and
/// once the output's reader has gone no more text is shown and the answer is stopped. The
/// server's web searches are shown as they start (their queries, on the notes stream), and the
/// sources the answer cites are gathered, for the renderer to list after it.
struct AnswerEventRouter {
    private var notes: AnswerNotes
    private let showsReasoning: Bool
    private let showsSearches: Bool
    /// The sources cited so far.
    private(set) var sources = AnswerSources()
    /// The number of the source the last event cited when it was new, else nil.
    private(set) var newSource: Int?
    /// Whether the output's reader went away; the answer was then stopped.
    private(set) var outputClosed = false

    /// Notes go to `notes`; reasoning too unless `showsReasoning` is false, and searches unless
    /// `showsSearches` is false.
    init(notes: AnswerNotes, showsReasoning: Bool = true, showsSearches: Bool = true) {
        self.notes = notes
        self.showsReasoning = showsReasoning
        self.showsSearches = showsSearches
    }

    /// Routes `event`: a piece of text (not empty, while the reader is there) to `show`, which
    /// returns false when the output's reader has gone; notes to the notes stream.
    mutating func route(_ event: ChatEvent, show: (String) -> Bool) {
        newSource = nil
        switch event {
        case .text(let piece):
            guard !outputClosed, !piece.isEmpty else { return }
            notes.endReasoning()
            if !show(piece) { readerGone() }
        case .reasoning(let piece):
            if showsReasoning { notes.reasoning(piece) }
        case .retrying(let attempt, let limit, let delay, let reason):
            notes.retrying(attempt: attempt, limit: limit, delay: delay, reason: reason)
        case .sentAsText(let provider):
            notes.sentAsText(provider: provider)
        case .notice(let notice):
            notes.notice(notice)
        case .fellBack(let from, let to, let model, let error):
            notes.fellBack(from: from, to: to, model: model, after: error)
        case .searching(let query):
            if showsSearches { notes.searching(query) }
        case .cited(let citation):
            newSource = sources.add(citation)
        case .usage, .finished, .toolCalls, .thinking, .resumed, .searched:
            break
        }
    }

    /// The output's reader has gone: nothing more is shown, and the answer is stopped (the task
    /// that reads it is cancelled).
    mutating func readerGone() {
        outputClosed = true
        withUnsafeCurrentTask { $0?.cancel() }
    }

    /// The answer has ended: ends the reasoning's line, if it is open.
    mutating func finish() {
        notes.endReasoning()
    }
}
