import Testing

@testable import ChatPresentation
@testable import ChatRendering

/// The Markdown renderer's parts that decide something on their own, each tested directly:
/// where a link ends, what a delimiter run does, what a line inside a code block is, and how
/// tentative text is taken back off a row.
@Suite struct MarkdownPartsTests {
    private func bytes(_ text: String) -> ArraySlice<UInt8> { Array(text.utf8)[...] }

    // MARK: LinkSyntax

    @Test func aWholeLinkGivesItsLabelDestinationAndEnd() {
        let b = bytes("[the docs](<https://example.com/a b> \"Title\") after")
        guard case .link(let label, let destination, let end) = LinkSyntax.link(b, labelStart: 1, complete: false)
        else {
            Issue.record("not read as a link")
            return
        }
        #expect(String(decoding: b[label], as: UTF8.self) == "the docs")
        #expect(destination == "https://example.com/a b")
        #expect(b[end] == UInt8(ascii: ")"))
    }

    @Test func aLinkWaitsForItsEndUnlessTheLineIsComplete() {
        #expect(LinkSyntax.link(bytes("[label](https://exa"), labelStart: 1, complete: false) == .more)
        #expect(LinkSyntax.link(bytes("[label](https://exa"), labelStart: 1, complete: true) == .literal)
        #expect(LinkSyntax.link(bytes("[label"), labelStart: 1, complete: false) == .more)
        #expect(LinkSyntax.link(bytes("[label] and more"), labelStart: 1, complete: false) == .literal)
    }

    @Test func aStrayBracketHoldsNothingBackPastTheLimit() {
        let long = "[" + String(repeating: "a", count: LinkSyntax.holdLimit + 10)
        #expect(LinkSyntax.link(bytes(long), labelStart: 1, complete: false) == .literal)
    }

    @Test func anAutolinkNeedsASchemeOrAnAddress() {
        let b = bytes("<https://example.com> rest")
        guard case .link(let label, let url, let end) = LinkSyntax.autolink(b, complete: false) else {
            Issue.record("not read as an autolink")
            return
        }
        #expect(String(decoding: b[label], as: UTF8.self) == "https://example.com")
        #expect(url == "https://example.com")
        #expect(end == 20)
        #expect(LinkSyntax.autolink(bytes("<name@example.com>"), complete: false) != .literal)
        #expect(LinkSyntax.autolink(bytes("<not a link>"), complete: false) == .literal)
        #expect(LinkSyntax.autolink(bytes("<T>"), complete: false) == .literal)
        #expect(LinkSyntax.autolink(bytes("<https://exa"), complete: false) == .more)
    }

    // MARK: Emphasis

    @Test func aRunOpensAtAWordsStartAndClosesAtItsEnd() {
        var emphasis = Emphasis()
        #expect(emphasis.take(UInt8(ascii: "*"), run: 2, previous: .space, next: .other) == 0)
        #expect(emphasis.style(.plain) == TextStyle(attributes: TextStyle.bold))
        #expect(emphasis.take(UInt8(ascii: "*"), run: 2, previous: .other, next: .space) == 0)
        #expect(emphasis.style(.plain) == .plain)
    }

    @Test func anUnderscoreInsideAWordIsText() {
        var emphasis = Emphasis()
        #expect(emphasis.take(UInt8(ascii: "_"), run: 1, previous: .other, next: .other) == 1)
        #expect(emphasis.style(.plain) == .plain)
        // A star there does open.
        #expect(emphasis.take(UInt8(ascii: "*"), run: 1, previous: .other, next: .other) == 0)
        #expect(emphasis.style(.plain) == TextStyle(attributes: TextStyle.italic))
    }

    @Test func threeStarsOpenBothAndTwoTildesStrike() {
        var emphasis = Emphasis()
        #expect(emphasis.take(UInt8(ascii: "*"), run: 3, previous: .space, next: .other) == 0)
        #expect(emphasis.take(UInt8(ascii: "~"), run: 2, previous: .space, next: .other) == 0)
        #expect(emphasis.style(.plain).attributes == TextStyle.bold | TextStyle.italic | TextStyle.strike)
        // One tilde is text.
        #expect(emphasis.take(UInt8(ascii: "~"), run: 1, previous: .other, next: .space) == 1)
    }

    // MARK: CodeFence

    private func fence(quoteDepth: Int = 0, indent: Int = 0) -> CodeFence {
        CodeFence(
            marker: UInt8(ascii: "`"), count: 3, indent: indent, quoteDepth: quoteDepth, prefix: .none,
            language: "swift")
    }

    @Test func aFenceClosesOnARunAsLongAsItsOpening() {
        let b = bytes("```  \nnext")
        #expect(fence().line(at: b, final: false) == .closing(next: 6))
        #expect(fence().line(at: bytes("````\n"), final: false) == .closing(next: 5))
        #expect(fence().line(at: bytes("``\n"), final: false) == .code(start: 0))
        #expect(fence().line(at: bytes("``` swift\n"), final: false) == .code(start: 0))
    }

    @Test func aFenceLineWaitsUntilItIsKnown() {
        #expect(fence().line(at: bytes("   "), final: false) == .more)
        #expect(fence().line(at: bytes("```"), final: false) == .more)
        #expect(fence().line(at: bytes("```"), final: true) == .closing(next: 3))
    }

    @Test func aQuotedFenceDropsTheQuoteMarkersAndItsIndentation() {
        #expect(fence(quoteDepth: 1).line(at: bytes("> let x\n"), final: false) == .code(start: 2))
        #expect(fence(quoteDepth: 1).line(at: bytes("> ```\n"), final: false) == .closing(next: 6))
        #expect(fence(indent: 2).line(at: bytes("    x\n"), final: false) == .code(start: 2))
    }

    // MARK: RowOutput

    @Test func asciiTentativeTextIsTakenBackByStepping() {
        var output = RowOutput(theme: MarkdownTheme(escapes: true, colour: true, hyperlinks: false))
        output.put(bytes("ab "), .plain, link: nil)
        output.put(bytes("cd"), TextStyle(attributes: TextStyle.bold), link: nil, tentative: true)
        _ = output.take()
        #expect(output.holdsTentative && output.tentativeIsASCII)
        output.takeBackTentative(cells: 2, stepBack: true)
        #expect(String(decoding: output.take(), as: UTF8.self) == "\u{1B}[2D\u{1B}[K\u{1B}[0m")
        #expect(!output.holdsTentative)
    }

    @Test func otherTentativeTextIsTakenBackByWritingTheRowAgain() {
        var output = RowOutput(theme: MarkdownTheme(escapes: true, colour: true, hyperlinks: false))
        output.put(bytes("ab "), .plain, link: nil)
        output.put(bytes("👍🏽"), .plain, link: nil, tentative: true)
        _ = output.take()
        #expect(!output.tentativeIsASCII)
        output.takeBackTentative(cells: 2, stepBack: false)
        #expect(String(decoding: output.take(), as: UTF8.self) == "\r\u{1B}[0m\u{1B}[Kab ")
    }

    @Test func committedTentativeTextIsPartOfTheRow() {
        var output = RowOutput(theme: MarkdownTheme(escapes: true, colour: true, hyperlinks: false))
        output.put(bytes("ab "), .plain, link: nil)
        output.put(bytes("cd"), .plain, link: nil, tentative: true)
        output.commitTentative()
        output.put(bytes("é"), .plain, link: nil, tentative: true)
        _ = output.take()
        output.takeBackTentative(cells: 1, stepBack: false)
        #expect(String(decoding: output.take(), as: UTF8.self) == "\r\u{1B}[0m\u{1B}[Kab cd")
    }

    /// The row's bytes are kept across outputs taken, rows ended and text written while
    /// something is shown tentatively: the row written again is exactly what it holds.
    @Test func theRowWrittenAgainIsWhatItHolds() {
        var output = RowOutput(theme: MarkdownTheme(escapes: true, colour: true, hyperlinks: false))
        output.put(bytes("x"), .plain, link: nil)
        output.endRow()
        output.put(bytes("ab "), .plain, link: nil)
        _ = output.take()
        output.put(bytes("cd"), TextStyle(attributes: TextStyle.bold), link: nil)
        output.drain { _ in }
        output.put(bytes("é"), .plain, link: nil, tentative: true)
        output.put(bytes("e"), TextStyle(attributes: TextStyle.bold), link: nil)
        _ = output.take()
        output.takeBackTentative(cells: 1, stepBack: false)
        #expect(String(decoding: output.take(), as: UTF8.self) == "\r\u{1B}[0m\u{1B}[Kab \u{1B}[1mcd\u{1B}[1me")
    }

    // MARK: ASCII fast paths

    /// A link's destination and a fence's language read from ASCII bytes are what the string
    /// reading gives (trimmed of every kind of whitespace, title and braces dropped).
    @Test func asciiDestinationsAndLanguagesReadAsStringsDo() {
        let destinations = [
            "https://a.example/x", "  https://a.example/x\t ", "<https://a.example/a b> \"T\"",
            "https://a.example/x \"Title\"", "\u{0B}\u{0C}x\u{0C}", "", "   ", "<>", "<a", "é x", "\u{A0}x\u{A0}",
        ]
        for destination in destinations {
            let b = bytes("[l](" + destination + ")")
            guard case .link(_, let read, _) = LinkSyntax.link(b, labelStart: 1, complete: true) else {
                Issue.record("not a link: \(destination)")
                continue
            }
            #expect(read == LinkSyntax.destination(destination), "\(destination)")
        }
        for info in ["python", "python {.x}", "rust,ignore", "c++", "", "pythön x", "a\u{301} b"] {
            #expect(
                LineStart.language(ofFenceInfo: info) == String(info.prefix { $0 != " " && $0 != "{" && $0 != "," }))
            let line = LineStart.read(bytes("```  " + info + " \t\n"), final: false)
            #expect(
                line?.kind == .fence(marker: UInt8(ascii: "`"), count: 3, info: info.trimmingCharacters()), "\(info)")
        }
    }
}
