import ChatDomain
import Testing

/// `ServerText`: a server's words as one safe line.
@Suite("Server text")
struct ServerTextTests {
    @Test(
        "control characters and escape sequences are removed, line breaks folded",
        arguments: [
            ("plain words", "plain words"),
            ("two\nlines", "two lines"),
            ("crlf\r\n\r\nand  tabs\t\there", "crlf and tabs here"),
            ("  padded \n", "padded"),
            ("clear\u{1B}[2Jscreen", "clearscreen"),
            ("colour \u{1B}[1;31mred\u{1B}[0m done", "colour red done"),
            ("title \u{1B}]0;pwned\u{07}after", "title after"),
            ("title \u{1B}]2;pwned\u{1B}\\after", "title after"),
            ("c1 \u{9B}31mred \u{9D}0;t\u{9C}end", "c1 red end"),
            ("dcs \u{1B}Pq#0;2;0;0;0\u{1B}\\done", "dcs done"),
            ("reset\u{1B}c and save\u{1B}7 and charset\u{1B}(B end", "reset and save and charset end"),
            ("bell\u{07}\u{07} nul\u{00} del\u{7F} c1\u{85}x", "bell nul del c1 x"),
            ("bidi \u{202E}txt.exe\u{202C} \u{2066}iso\u{2069}", "bidi txt.exe iso"),
            ("separators\u{2028}and\u{2029}more", "separators and more"),
            ("unfinished \u{1B}[12", "unfinished"),
            ("unfinished title \u{1B}]0;never ends", "unfinished title"),
            ("lone escape at the end\u{1B}", "lone escape at the end"),
            ("ünïcødé 🎉 中文", "ünïcødé 🎉 中文"),
        ])
    func cleaned(input: String, expected: String) {
        #expect(ServerText.line(input) == expected)
    }

    @Test func longTextIsCutWithAnEllipsis() {
        let text = String(repeating: "abcd ", count: 100)
        let line = ServerText.line(text, limit: 22)
        #expect(line == "abcd abcd abcd abcd ab…")
        #expect(ServerText.line("abcd abcd", limit: 5) == "abcd…")
        #expect(ServerText.line("short", limit: 5) == "short")
    }
}
