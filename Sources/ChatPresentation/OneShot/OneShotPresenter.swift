import ChatDomain

/// Presents one question and its answer: `chat "prompt"`.
public struct OneShotPresenter {
    private let useCase: any ChatUseCase
    private let notes: any OutputSink
    private let notesStyle: TerminalStyle
    private let makeRenderer: AnswerRendererFactory
    /// Checks a whole answer against the conversation's schema (`--schema`), when it has one.
    public var schemaChecker: (any SchemaChecker)?

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
        let turn = await useCase.send(
            message, in: &conversation, onSent: { renderer.started(conversation: $0) },
            onEvent: { event in
                stop.take(event)
                renderer.render(event)
            })
        renderer.finish(turn)
        if let answer = turn.answer {
            stop.write(to: notes, style: notesStyle)
            guard let schema = conversation.settings.responseSchema, let schemaChecker,
                let mismatch = schemaChecker.firstMismatch(inAnswer: answer.content, against: schema)
            else { return .answered }
            let line = ErrorWording.line(for: mismatch)
            renderer.mismatched(line)
            notes.write(notesStyle.error("chat: error: \(line)") + "\n")
            return .mismatched(mismatch)
        }
        if renderer.outputClosed { return .outputClosed }
        let error = turn.error ?? .malformedResponse("no answer")
        if error == .cancelled { return .interrupted }
        if renderer.printedText, let partial = conversation.messages.last, partial.role == .assistant,
            let line = ErrorWording.brokenLine(for: error, after: partial.content.count)
        {
            // The text shown stays: the stored conversation ends with it, marked interrupted.
            notes.write(
                notesStyle.error("chat: error: \(line) (the text shown is kept; chat -c, then /retry, asks again)")
                    + "\n")
            return .failed(error)
        }
        notes.write(notesStyle.error("chat: error: \(ErrorWording.line(for: error))") + "\n")
        return .failed(error)
    }
}
