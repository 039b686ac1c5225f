import ChatDomain

/// Presents one question and its answer: `chat "prompt"`.
public struct OneShotPresenter {
    private let useCase: any ChatUseCase
    private let notes: any OutputSink
    private let notesStyle: TerminalStyle
    private let makeRenderer: AnswerRendererFactory

    /// The answer is shown by a renderer from `makeRenderer`; errors go to `notes`.
    public init(
        useCase: any ChatUseCase, notes: any OutputSink, notesStyle: TerminalStyle,
        makeRenderer: @escaping AnswerRendererFactory
    ) {
        self.useCase = useCase
        self.notes = notes
        self.notesStyle = notesStyle
        self.makeRenderer = makeRenderer
    }

    /// Sends `text` in `conversation` and streams the answer.
    public func run(_ text: String, in conversation: inout Conversation) async -> TurnOutcome {
        await run(ChatMessage(role: .user, content: text), in: &conversation)
    }

    /// Sends `message` (attachments and all) in `conversation` and streams the answer.
    public func run(_ message: ChatMessage, in conversation: inout Conversation) async -> TurnOutcome {
        let renderer = makeRenderer()
        var stop = StopReasonNote()
        let turn = await useCase.send(message, in: &conversation) { event in
            stop.take(event)
            renderer.render(event)
        }
        renderer.finish(turn)
        if turn.answer != nil {
            stop.write(to: notes, style: notesStyle)
            return .answered
        }
        if renderer.outputClosed { return .outputClosed }
        let error = turn.error ?? .malformedResponse("no answer")
        if error == .cancelled { return .interrupted }
        notes.write(notesStyle.error("chat: error: \(ErrorWording.line(for: error))") + "\n")
        return .failed(error)
    }
}
