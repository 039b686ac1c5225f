import Testing

@testable import ChatPresentation
@testable import ChatRendering

private let colourTheme = MarkdownTheme(escapes: true, colour: true, hyperlinks: true)

/// What a streaming renderer must show the same however the answer was cut: documents with
/// every construct, wide and zero-width characters, long words and hostile bytes.
let markdownDocuments: [String] = [
    """
    # Title

    Some **bold** and *italic* and ~~struck~~ text with `code` and a [link](https://example.com). \
    A long line that will need to wrap somewhere around here, *emphasis across the wrap point* too.

    - one
    - two with a longer item that wraps onto a second row of the list
      - nested
        1. deeper
    1. first
    2. second
    - [ ] a task
    - [x] done

    > quoted text that is long enough to wrap inside the quote bars on the left side
    > > nested quote

    ```swift
    let x = 1 // comment
    func f() -> String { "hi" } /* block
    comment */ let y = "multi \\" quoted"
    ```

    | Name | Year | Note |
    |:-----|-----:|:----:|
    | Swift | 2014 | *fast* |
    | Python | 1991 | `slow` and a rather long cell that must wrap |

    ---
    中文文本没有空格但是需要换行，这是一个很长的句子需要在终端中正确地换行显示出来。
    """,
    """
    Emoji 😀 and a family 👨‍👩‍👧 and flags 🇫🇷🇯🇵 and ❤️ hearts, combining é and Hangul 한국어 text \
    with a verylongunbrokenwordthatcannotpossiblyfitonasinglerowofthisnarrowterminalatallreally \
    and then more words after it.
    https://example.com/a/very/long/url/that/goes/on/and/on/and/on/for/a/while/longer/than/a/row
    Snake_case_names and 2*3*4 and a * b and <https://auto.link> and <T> generics.
    Escaped \\*stars\\* and \\`ticks\\` and a [label] without a link and ![alt text](pic.png).
    """,
    """
    Control \u{1B}[31mred\u{1B}[0m and bell \u{07} and a title \u{1B}]0;pwned\u{07} and tab\there and\r\n\
    CRLF lines and C1 \u{9B}31m.
    ```python
    def f(x):
    \treturn x  # tab-indented
    s = '''triple
    quoted'''
    ```
    ```
    unknown language block with <html> & stuff
    ```
    ```diff
    - old line
    + new line
    @@ -1,2 +1,2 @@
    ```
    | not | a table
    just text after it
    """,
    """
    1. Install:
       ```bash
       for f in *.txt; do echo "$f" ${HOME}; done # loop
       ```
    2. Then **run** it.

    Text right after a list.
    Setext heading
    ===
    **unclosed bold at the end of a line
    and *unclosed italic
    ```json
    {"key": [1, 2.5, true, null], "s": "x\\"y"}
    ```
    ```yaml
    name: value # comment
    list:
      - item: 3
    ```
    ```sql
    SELECT name FROM users WHERE id = 1; -- comment
    ```
    ```html
    <div class="x">Text &amp; more<!-- comment --></div>
    ```
    ```go
    func main() { fmt.Println(`raw`) }
    ```
    ```rust
    fn main() { let s: &str = "x"; }
    ```
    ```c
    #include <stdio.h>
    int main(void) { return 0; }
    ```
    ```java
    @Override public String toString() { return "x"; }
    ```
    ```typescript
    const x: number = 42; // done
    ```
    """,
]

/// Renders `pieces` one after another at `width` columns; with `stall`, shows what is held
/// after each piece, as the renderer does when nothing arrives for a while.
private func render(_ pieces: [String], width: Int = 40, stall: Bool = false, theme: MarkdownTheme = colourTheme)
    -> String
{
    var stream = MarkdownStream(theme: theme, width: { width })
    var out: [UInt8] = []
    for piece in pieces {
        out += stream.feed(piece)
        if stall { out += stream.showHeld() }
    }
    out += stream.finish()
    return String(decoding: out, as: UTF8.self)
}

/// `text` cut into pieces of `size` scalars.
private func pieces(_ text: String, size: Int) -> [String] {
    let scalars = Array(text.unicodeScalars)
    return stride(from: 0, to: scalars.count, by: size).map { start in
        var piece = ""
        piece.unicodeScalars.append(contentsOf: scalars[start..<min(start + size, scalars.count)])
        return piece
    }
}

/// `text` cut in two at scalar `index`.
private func split(_ text: String, at index: Int) -> [String] {
    let scalars = Array(text.unicodeScalars)
    var first = ""
    var second = ""
    first.unicodeScalars.append(contentsOf: scalars[..<index])
    second.unicodeScalars.append(contentsOf: scalars[index...])
    return [first, second]
}

/// Serialized: the cases are CPU-heavy, and the binary's timing-sensitive tests run beside them.
@Suite(.serialized) struct MarkdownStreamTests {
    /// The property a streaming renderer breaks: the answer cut anywhere (every scalar boundary:
    /// a String cannot be cut inside a scalar, and every byte of the ASCII text is one) shows
    /// the same screen, styles included, as the answer fed whole. At 100 columns, every 10th.
    @Test(arguments: markdownDocuments.indices)
    func cutAnywhereShowsTheSameScreen(document: Int) {
        let text = markdownDocuments[document]
        for width in [40, 100] {
            let whole = ScreenModel.after(render([text], width: width), width: width)
            let count = text.unicodeScalars.count
            for index in stride(from: 1, to: count, by: width == 40 ? 1 : 10) {
                let screen = ScreenModel.after(render(split(text, at: index), width: width), width: width)
                if screen.styledLines != whole.styledLines {
                    Issue.record(
                        "cut at \(index) of \(count), width \(width):\n\(screen.lines.joined(separator: "\n"))\nwhole:\n\(whole.lines.joined(separator: "\n"))"
                    )
                    return
                }
            }
        }
    }

    @Test(arguments: markdownDocuments.indices)
    func oneScalarAtATimeShowsTheSameScreen(document: Int) {
        let text = markdownDocuments[document]
        let whole = ScreenModel.after(render([text]), width: 40)
        let streamed = ScreenModel.after(render(pieces(text, size: 1)), width: 40)
        #expect(streamed.styledLines == whole.styledLines)
    }

    /// Previews drawn at stalls are taken back: the final screen is the same.
    @Test(arguments: markdownDocuments.indices)
    func stallsAfterEveryPieceLeaveTheSameScreen(document: Int) {
        let text = markdownDocuments[document]
        let whole = ScreenModel.after(render([text]), width: 40)
        for size in [1, 3, 7] {
            let stalled = ScreenModel.after(render(pieces(text, size: size), stall: true), width: 40)
            #expect(stalled.styledLines == whole.styledLines, "pieces of \(size)")
        }
    }

    /// Prose never reaches the last column (code may: the terminal wraps it).
    @Test func proseRowsStayOneCellShortOfTheWidth() {
        for width in [20, 40, 100] {
            let screen = ScreenModel.after(render([markdownDocuments[1]], width: width), width: width)
            #expect(screen.widestColumn <= width - 1, "width \(width)")
        }
    }
}
