import ChatDomain
import ChatPresentation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `chat "prompt"`: one question, the answer streamed to stdout.
struct OneShotMode {
    var session: Session

    func run(message: ChatMessage) async -> Int32 {
        let code = CodeOnlyAnswerRenderer.Report()
        let (stdout, stderr, style) = (session.stdout, session.stderr, session.notesStyle)
        var makeRenderer = session.makeRenderer
        if session.codeOnly {
            makeRenderer = { CodeOnlyAnswerRenderer(output: stdout, notes: stderr, notesStyle: style, report: code) }
        }
        var presenter = OneShotPresenter(
            useCase: session.useCase, notes: session.stderr, notesStyle: session.notesStyle,
            makeRenderer: makeRenderer)
        presenter.schemaChecker = ResponseSchemaChecker()
        let (outcome, _, signal) = await session.turn { [presenter] in await presenter.run(message, in: &$0) }
        switch outcome {
        case .answered:
            // `--code` with no code block: nothing usable was written.
            return session.codeOnly && !code.foundCode ? 1 : 0
        case .outputClosed:
            return 0
        case .failed(.requestTooLarge):
            // Files too large for the API: bad input, found before anything was sent.
            return 2
        case .failed, .mismatched:
            return 1
        case .interrupted:
            return SignalWatcher.exitStatus(for: signal ?? SIGINT)
        }
    }
}
