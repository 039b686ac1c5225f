import ChatDomain
import Foundation
import Testing

@testable import ChatPresentation
@testable import ChatRendering

/// The renderer as the REPL and one-shot use it: the stall timer, hyperlinks, the code lexer's
/// languages, `--code`, control characters.
@Suite struct MarkdownAnswerRendererTests {
    private let theme = MarkdownTheme(escapes: true, colour: true, hyperlinks: false)

    @Test func whatIsHeldIsShownWhenNothingMoreArrives() async throws {
        let output = CapturingSink(isTerminal: true)
        let renderer = MarkdownAnswerRenderer(
            output: output, notes: CapturingSink(), notesStyle: .plain, theme: theme, width: { 40 },
            holdBack: .milliseconds(20))
        renderer.render(.text("Say **"))
        #expect(!output.text.contains("**"))
        let deadline = Date().addingTimeInterval(2)
        while !output.text.contains("**") && Date() < deadline { try await Task.sleep(for: .milliseconds(10)) }
        #expect(output.text.contains("**"), "the held `**` is shown after the hold-back time")
        renderer.render(.text("hi** there"))
        renderer.finish(Turn(answer: ChatMessage(role: .assistant, content: "Say **hi** there")))
        let screen = ScreenModel.after(output.text, width: 40)
        #expect(screen.styledLines == ["Say {1}hi {}there"])
    }

    @Test func ctrlCLeavesNoStyleOrHyperlinkOpen() {
        let output = CapturingSink(isTerminal: true)
        let renderer = MarkdownAnswerRenderer(
            output: output, notes: CapturingSink(), notesStyle: .plain, theme: theme, width: { 40 }, holdBack: nil)
        renderer.render(.text("Some **bold and `code"))
        renderer.finish(Turn(answer: nil, error: .cancelled))
        #expect(output.text.hasSuffix("\n\u{1B}[0m\u{1B}]8;;\u{1B}\\\u{1B}[?25h"))
    }

    @Test func linksAreHyperlinksOnlyWhereTheTerminalShowsThemAndTheURLIsAlwaysPrinted() {
        for hyperlinks in [false, true] {
            var stream = MarkdownStream(
                theme: MarkdownTheme(escapes: true, colour: true, hyperlinks: hyperlinks), width: { 80 })
            let text = String(
                decoding: stream.feed("See [the docs](https://swift.org/x).") + stream.finish(), as: UTF8.self)
            #expect(text.contains("\u{1B}]8;;https://swift.org/x\u{1B}\\") == hyperlinks)
            #expect(ScreenModel.after(text, width: 80).lines == ["See the docs (https://swift.org/x)."])
        }
        #expect(Hyperlink.supported(environment: ["TERM": "xterm-kitty"]))
        #expect(Hyperlink.supported(environment: ["VTE_VERSION": "7200"]))
        #expect(!Hyperlink.supported(environment: ["VTE_VERSION": "7200", "TMUX": "/tmp/x"]))
        #expect(!Hyperlink.supported(environment: ["TERM": "xterm-256color"]))
        #expect(Hyperlink.supported(environment: ["FORCE_HYPERLINK": "1", "TMUX": "/tmp/x"]))
        #expect(Hyperlink.safeURL("javascript:alert(1)") == nil)
    }

    @Test func controlCharactersAreShownNotObeyed() {
        #expect(
            ControlSanitizer.sanitized("a\u{1B}[2Jb\u{07}c\r\nd\u{7F}\u{9B}") == Array("a^[[2Jb^Gc\nd^?\u{FFFD}".utf8))
        #expect(ControlSanitizer.sanitized("plain\ttext\n") == Array("plain\ttext\n".utf8))
        // What a piece is appended as is what it is made into, whatever its bytes and wherever
        // they fall in the eight bytes the check reads at once (the check that lets clean text
        // through unchanged sees every control character).
        for scalar in (0...0x2FF).compactMap(Unicode.Scalar.init) {
            let padded = (0..<9).map {
                String(repeating: "a", count: $0) + "\(scalar)" + String(repeating: "b", count: 16)
            }
            for text in ["\(scalar)", "ab\(scalar)cd", "中\(scalar)", "\u{A0}\(scalar)x"] + padded {
                var appended: [UInt8] = []
                ControlSanitizer.append(text, to: &appended)
                #expect(appended == ControlSanitizer.sanitized(text), "U+\(String(scalar.value, radix: 16))")
            }
        }
    }

    @Test func cellWidths() {
        #expect(CellWidth.of("abc") == 3)
        #expect(CellWidth.of("中文") == 4)
        #expect(CellWidth.of("e\u{301}") == 1)
        #expect(CellWidth.of("😀") == 2)
        #expect(CellWidth.of("🇯🇵") == 2)
        #expect(CellWidth.of("❤️") == 2)
        #expect(CellWidth.of("👍🏽") == 2)
        #expect(CellWidth.of("한국어") == 6)
    }

    /// The CJK block answered without a search gives what the tables give, for every scalar in
    /// it and around it.
    @Test func cellWidthsOfTheWideBlockAgreeWithTheTables() {
        let inTable = { (table: [(UInt32, UInt32)], scalar: UInt32) in
            table.contains { $0.0 <= scalar && scalar <= $0.1 }
        }
        let block = CellWidth.wideBlock
        var differing: [UInt32] = []
        for scalar in (block.lowerBound - 0x100)...(block.upperBound + 0x100) {
            let zero = inTable(CellWidthTable.zero, scalar)
            let wide = inTable(CellWidthTable.wide, scalar)
            if CellWidth.of(scalar) != (zero ? 0 : wide ? 2 : 1) || CellWidth.isZeroWidth(scalar) != zero
                || CellWidth.isWide(scalar) != wide
            {
                differing.append(scalar)
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(5).map { String($0, radix: 16) })")
    }

    /// A character a line may break after (CJK) is counted as two cells without counting: so
    /// every wide character is two cells, whatever came before it (none is zero-width too, none
    /// is a skin-tone modifier or a regional indicator, whose cells depend on what precedes).
    @Test func everyWideCharacterIsTwoCells() {
        var differing: [UInt32] = []
        for range in CellWidthTable.wide where range.0 < 0x1F000 || range.0 >= 0x20000 {
            for scalar in range.0...range.1 {
                var counter = WidthCounter()
                _ = counter.add(0x61)
                if CellWidth.of(scalar) != 2 || counter.add(scalar) != 2 { differing.append(scalar) }
            }
        }
        #expect(differing.isEmpty, "\(differing.prefix(5).map { String($0, radix: 16) })")
    }

    /// One line of each language the issue names, and the kind a known token of it gets.
    @Test(arguments: [
        ("swift", "let x = \"s\" // c", "let", CodeToken.keyword), ("python", "def f(): return None", "None", .literal),
        ("javascript", "const s = `t`;", "`t`", .string), ("typescript", "let n: number = 1", "number", .type),
        ("go", "func main() {}", "func", .keyword), ("rust", "fn main() -> u32 {}", "u32", .type),
        ("c", "#include <stdio.h>", "#include", .meta), ("cpp", "int x = 0; /* c */", "/* c */", .comment),
        ("java", "@Override public void f() {}", "@Override", .attribute),
        ("bash", "echo $HOME # c", "$HOME", .variable),
        ("json", "{\"a\": true}", "true", .literal), ("yaml", "name: value", "name", .attribute),
        ("sql", "select * from t", "select", .keyword), ("html", "<div class=\"x\">", "class", .attribute),
        ("diff", "+ added line", "+ added line", .inserted),
    ])
    func eachLanguageColoursItsTokens(language: String, line: String, token: String, kind: CodeToken) throws {
        var lexer = CodeLexer(language: try #require(CodeLanguages.named(language)))
        let bytes = Array(line.utf8)[...]
        var index = bytes.startIndex
        var kinds: [CodeToken] = []  // per byte
        while index < bytes.endIndex {
            let next = lexer.next(bytes[index...], complete: true)
            let (length, kind) = try #require(next)
            kinds += Array(repeating: kind, count: length)
            index += length
        }
        let start = try #require(line.utf8.firstRange(of: token.utf8)).lowerBound
        let offset = line.utf8.distance(from: line.utf8.startIndex, to: start)
        #expect(kinds[offset..<(offset + token.utf8.count)].allSatisfy { $0 == kind }, "\(kinds)")
        #expect(CodeLanguages.named("brainfudge") == nil)
    }

    @Test func codeOnlyWritesTheCodeAndShowsTheRestOnATerminal() {
        let output = CapturingSink()
        let notes = CapturingSink(isTerminal: true)
        let report = CodeOnlyAnswerRenderer.Report()
        let renderer = CodeOnlyAnswerRenderer(output: output, notes: notes, notesStyle: .plain, report: report)
        for piece in ["Here:\n```sh\nls", " -l\n```\nand ", "done."] { renderer.render(.text(piece)) }
        renderer.finish(Turn(answer: ChatMessage(role: .assistant, content: "")))
        #expect(output.text == "ls -l\n")
        #expect(notes.text == "Here:\n``` sh\n```\nand done.\n")
        #expect(report.foundCode)
    }
}
