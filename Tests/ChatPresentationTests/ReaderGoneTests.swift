import ChatDomain
import Testing

@testable import ChatPresentation

/// Every renderer stops the answer once the output's reader has gone (`chat … | head -1`): the
/// task reading the answer is cancelled, `outputClosed` says so, and nothing more is tried.
@Suite struct ReaderGoneTests {
    @Test(arguments: ["plain", "markdown", "code"])
    func everyRendererStopsTheAnswerWhenTheReaderHasGone(_ kind: String) async {
        let output = CapturingSink(readerGoneAfter: 1)
        let notes = CapturingSink()
        // Each piece ends a line, so every renderer writes once per piece.
        let pieces = ["```sh\nls\n", "pwd\n", "whoami\n"]
        let (closed, cancelled) = await Task { () -> (Bool, Bool) in
            let renderer: any AnswerRenderer =
                switch kind {
                case "plain": PlainAnswerRenderer(output: output, notes: notes, notesStyle: .plain)
                case "markdown":
                    MarkdownAnswerRenderer(output: output, notes: notes, notesStyle: .plain, fd: -1, environment: [:])
                default:
                    CodeOnlyAnswerRenderer(
                        output: output, notes: notes, notesStyle: .plain, report: CodeOnlyAnswerRenderer.Report())
                }
            for piece in pieces { renderer.render(.text(piece)) }
            return (renderer.outputClosed, Task.isCancelled)
        }.value

        #expect(closed)
        #expect(cancelled)
        #expect(output.writes.count == 1)
        // The second piece found the reader gone; the third was not tried.
        #expect(output.refused.count == 1)
    }
}
