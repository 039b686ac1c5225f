import ChatPresentation
import Testing

private let escape = "\u{1B}["

/// Every decoration the style offers, applied to `text`.
private func decorations(of style: TerminalStyle, _ text: String) -> [String] {
    [style.dim(text), style.note(text), style.error(text), style.warning(text), style.bold(text)]
}

/// One way the style may be set up.
struct StyleCase: Sendable, CustomTestStringConvertible {
    let name: String
    let isTerminal: Bool
    let environment: [String: String]

    var testDescription: String { name }
}

@Suite("TerminalStyle")
struct TerminalStyleTests {
    @Test(arguments: [
        StyleCase(name: "not a terminal", isTerminal: false, environment: ["TERM": "xterm-256color"]),
        StyleCase(name: "not a terminal, empty environment", isTerminal: false, environment: [:]),
        StyleCase(name: "NO_COLOR=1", isTerminal: true, environment: ["NO_COLOR": "1", "TERM": "xterm-256color"]),
        StyleCase(name: "NO_COLOR=yes, no TERM", isTerminal: true, environment: ["NO_COLOR": "yes"]),
        StyleCase(name: "TERM=dumb", isTerminal: true, environment: ["TERM": "dumb"]),
    ])
    func writesNoEscapeCodes(_ setup: StyleCase) {
        let style = TerminalStyle(isTerminal: setup.isTerminal, environment: setup.environment)

        #expect(!style.colour)
        #expect(decorations(of: style, "text") == Array(repeating: "text", count: 5))
    }

    @Test(arguments: [
        StyleCase(name: "terminal", isTerminal: true, environment: ["TERM": "xterm-256color"]),
        StyleCase(name: "terminal, no TERM", isTerminal: true, environment: [:]),
        StyleCase(name: "terminal, empty NO_COLOR", isTerminal: true, environment: ["NO_COLOR": "", "TERM": "xterm"]),
    ])
    func writesEscapeCodesOnATerminal(_ setup: StyleCase) {
        let style = TerminalStyle(isTerminal: setup.isTerminal, environment: setup.environment)

        #expect(style.colour)
        for decorated in decorations(of: style, "text") {
            #expect(decorated.hasPrefix(escape))
            #expect(decorated.contains("text"))
            #expect(decorated.hasSuffix("\u{1B}[0m"))
        }
        #expect(style.error("text") == "\u{1B}[31mtext\u{1B}[0m")
        #expect(style.dim("text") == "\u{1B}[2mtext\u{1B}[0m")
    }

    @Test func plainWritesNoEscapeCodes() {
        #expect(!TerminalStyle.plain.colour)
        #expect(decorations(of: .plain, "text") == Array(repeating: "text", count: 5))
    }
}
