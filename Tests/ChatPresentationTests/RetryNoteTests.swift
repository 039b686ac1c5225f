import ChatDomain
import ChatTestSupport
import Testing

@testable import ChatPresentation

/// The note every renderer shows on a terminal when a request is sent again: one line, the
/// server's words in it shown as `ServerText` makes them.
@Suite struct RetryNoteTests {
    static let hostile = "503 \u{1B}]0;pwned\u{07}\u{1B}[2Jdown\nfor maintenance"

    @Test func theNoteIsOneCleanLine() {
        let note = ErrorWording.retryNote(attempt: 1, limit: 2, delay: 1.25, reason: Self.hostile)
        #expect(note.hasPrefix("retrying in 1.3 s (1/2): 503 "))
        #expect(!note.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(note.contains("down for maintenance"))
    }

    @Test(arguments: ["plain", "markdown", "code"])
    func everyRendererShowsTheCleanNote(_ kind: String) {
        let output = CapturingSink(isTerminal: true)
        let notes = CapturingSink(isTerminal: true)
        let renderer: any AnswerRenderer =
            switch kind {
            case "plain": PlainAnswerRenderer(output: output, notes: notes, notesStyle: .plain)
            case "markdown":
                MarkdownAnswerRenderer(output: output, notes: notes, notesStyle: .plain, fd: -1, environment: [:])
            default:
                CodeOnlyAnswerRenderer(
                    output: output, notes: notes, notesStyle: .plain, report: CodeOnlyAnswerRenderer.Report())
            }
        renderer.render(.retrying(attempt: 1, limit: 2, delay: 1.25, reason: Self.hostile))
        let expected = ErrorWording.retryNote(attempt: 1, limit: 2, delay: 1.25, reason: Self.hostile) + "\n"
        #expect(notes.text == expected)
    }
}
