import ChatDomain
import Testing

@testable import ChatPresentation
@testable import ChatRendering

/// A web search answer on a terminal: the query as a dimmed status line on the notes stream, the
/// sources after the answer with each title a hyperlink where the terminal shows them (the URL
/// always printed), the server's text made safe; and the plain renderer's list, each URL once.
@Suite struct WebSourcesRenderingTests {
    private let events: [ChatEvent] = [
        .searching(query: "weather\u{1B}]8;;https://evil.example\u{1B}\\ today"),
        .text("It is sunny."),
        .cited(WebCitation(url: "https://weather.example/today", title: "Weather\u{1B}[2J Today")),
        .cited(WebCitation(url: "https://weather.example/today", title: "Weather Today")),
        .cited(WebCitation(url: "https://forecast.example/", title: "")),
    ]

    private func render(hyperlinks: Bool) -> (output: String, notes: String) {
        let output = CapturingSink(isTerminal: true)
        let notes = CapturingSink(isTerminal: true)
        let renderer = MarkdownAnswerRenderer(
            output: output, notes: notes,
            notesStyle: TerminalStyle(isTerminal: true, environment: ["TERM": "xterm"]),
            theme: MarkdownTheme(escapes: true, colour: false, hyperlinks: hyperlinks), width: { 80 }, holdBack: nil)
        events.forEach(renderer.render)
        renderer.finish(Turn(answer: ChatMessage(role: .assistant, content: "It is sunny.")))
        return (output.text, notes.text)
    }

    @Test func theQueryIsADimmedStatusLineMadeSafe() {
        let notes = render(hyperlinks: false).notes
        #expect(notes == "\u{1B}[2msearching the web: weather today\u{1B}[0m\n")
    }

    @Test func eachTitleIsAHyperlinkWhereTheTerminalShowsThem() {
        let linked = render(hyperlinks: true).output
        #expect(
            linked.contains(
                "\n\n[1] \u{1B}]8;;https://weather.example/today\u{1B}\\Weather Today\u{1B}]8;;\u{1B}\\ — "
                    + "https://weather.example/today\n[2] \u{1B}]8;;https://forecast.example/\u{1B}\\"
                    + "https://forecast.example/\u{1B}]8;;\u{1B}\\\n"), "\(linked.debugDescription)")
        let plain = render(hyperlinks: false).output
        #expect(
            plain.contains("\n\n[1] Weather Today — https://weather.example/today\n[2] https://forecast.example/\n"),
            "\(plain.debugDescription)")
        #expect(!plain.contains("\u{1B}]8;;h"))
    }

    @Test func thePlainRendererListsEachURLOnceAfterABlankLine() {
        let output = CapturingSink()
        let notes = CapturingSink()
        let renderer = PlainAnswerRenderer(output: output, notes: notes, notesStyle: .plain)
        events.forEach(renderer.render)
        renderer.finish(Turn(answer: ChatMessage(role: .assistant, content: "It is sunny.")))
        #expect(
            output.text
                == "It is sunny.\n\n[1] Weather Today — https://weather.example/today\n[2] https://forecast.example/\n")
        #expect(notes.text == "search: weather today\n")
    }

    @Test func noSourcesNoList() {
        let output = CapturingSink()
        let renderer = PlainAnswerRenderer(output: output, notes: CapturingSink(), notesStyle: .plain)
        renderer.render(.text("Hi."))
        renderer.finish(Turn(answer: ChatMessage(role: .assistant, content: "Hi.")))
        #expect(output.text == "Hi.\n")
    }
}
