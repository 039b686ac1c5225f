import ChatDomain
import Synchronization
import Testing

@testable import ChatPresentation
@testable import ChatRendering

/// The rendered answer's first piece reaches the terminal as `--raw` would write it: in one
/// write, before the next piece arrives, with nothing written ahead of it; and the warm-up that
/// `started(conversation:)` does while the request is on its way shows nothing and changes
/// nothing that is shown.
@Suite struct MarkdownFirstPieceTests {
    private let theme = MarkdownTheme(escapes: true, colour: true, hyperlinks: false)
    private let pieces = ["abcd", "hijk", " opqr", " and **more** of it\n", "1. a list\n"]

    private func renderer(_ output: CapturingSink) -> MarkdownAnswerRenderer {
        MarkdownAnswerRenderer(
            output: output, notes: CapturingSink(isTerminal: true), notesStyle: .plain, theme: theme,
            width: { 40 }, holdBack: nil)
    }

    @Test func thePlainFirstPieceIsOneWriteOfItsTextBeforeTheNextArrives() {
        for warm in [false, true] {
            let output = CapturingSink(isTerminal: true)
            let renderer = renderer(output)
            if warm { renderer.started(conversation: nil) }
            #expect(output.writes.isEmpty)
            renderer.render(.text("abcd"))
            #expect(output.writes == ["abcd"], "warm-up: \(warm)")
            renderer.render(.text("hijk"))
            #expect(output.writes == ["abcd", "hijk"], "warm-up: \(warm)")
        }
    }

    @Test func theWarmUpWritesNothingAndLeavesTheSameScreen() {
        var outputs: [[String]] = []
        for warm in [false, true] {
            let output = CapturingSink(isTerminal: true)
            let notes = CapturingSink(isTerminal: true)
            let renderer = MarkdownAnswerRenderer(
                output: output, notes: notes, notesStyle: .plain, theme: theme, width: { 40 }, holdBack: nil)
            if warm {
                renderer.started(conversation: nil)
                #expect(output.writes.isEmpty && notes.writes.isEmpty)
            }
            for piece in pieces { renderer.render(.text(piece)) }
            renderer.finish(Turn(answer: ChatMessage(role: .assistant, content: pieces.joined())))
            #expect(notes.writes.isEmpty)
            outputs.append(output.writes)
        }
        #expect(outputs[0] == outputs[1])
        #expect(
            ScreenModel.after(outputs[1].joined(), width: 40).lines == [
                "abcdhijk opqr and more of it", "1. a list",
            ])
    }

    /// The sample goes through the width (so its `ioctl` is bound before the answer arrives), and
    /// the work is done once a process, whichever renderer asks first.
    @Test func theWarmUpReadsTheWidthAndIsDoneOnce() {
        let reads = Atomic(0)
        MarkdownAnswerRenderer.renderSample(theme: theme) {
            reads.add(1, ordering: .relaxed)
            return 40
        }
        #expect(reads.load(ordering: .relaxed) >= 1)
        MarkdownAnswerRenderer.warmUp(theme: theme, width: { 40 })
        let again = MarkdownAnswerRenderer.warmUp(theme: theme, width: { 40 })
        #expect(!again)
    }
}
