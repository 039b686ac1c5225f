import ChatDomain

/// Runs one answer for the REPL: in a task of its own that Ctrl-C cancels (through
/// `SessionControl`), with the waiting indicator until the first event and a fresh renderer.
struct AnswerRunner {
    /// What to ask for.
    enum Request: Sendable {
        case send(ChatMessage)
        case retry
    }

    let parts: REPL.Parts

    /// Asks for an answer in `conversation`; returns the conversation as it now is, how the turn
    /// ended, and whether any answer text was shown.
    func run(_ request: Request, in conversation: Conversation) async -> (Conversation, Turn, printed: Bool) {
        let (useCase, makeRenderer) = (parts.useCase, parts.makeRenderer)
        let (notes, notesStyle) = (parts.notes, parts.notesStyle)
        let indicator = WaitingIndicator(notes: parts.notes, style: parts.notesStyle)
        let task = Task { () -> (Conversation, Turn, printed: Bool) in
            var conversation = conversation
            let spinner = indicator.start()
            let renderer = makeRenderer()
            var stop = StopReasonNote()
            let handle: (ChatEvent) -> Void = { event in
                indicator.stop()
                stop.take(event)
                renderer.render(event)
            }
            let turn: Turn
            switch request {
            case .send(let message):
                // As the one-shot does: the renderer readies itself while the request is on its way.
                turn = await useCase.send(
                    message, in: &conversation, onSent: { renderer.started(conversation: $0) }, onEvent: handle)
            case .retry: turn = await useCase.retry(in: &conversation, onEvent: handle)
            }
            indicator.stop()
            spinner?.cancel()
            renderer.finish(turn)
            if turn.answer != nil { stop.write(to: notes, style: notesStyle) }
            return (conversation, turn, renderer.printedText)
        }
        parts.control.answerStarted { task.cancel() }
        let result = await task.value
        parts.control.answerEnded()
        return result
    }
}
