import Testing

@testable import ChatPresentation
@testable import ChatRendering

/// Runs of words placed at once when they fit the row (`InlineRenderer`: spaces and whole ASCII
/// words, CJK ideographs; `TableLayout`: a plain cell; `CodeFence`: a code line's tokens of one
/// style, tabs and wide characters among them) against every word and token placed one at a time
/// (`runsAtOnce: false`): the same bytes, whole or in pieces, with escapes and without. And,
/// as the property that matters: fed whole (runs) or a scalar at a time (mostly not), the same
/// screen.
@Suite struct PlacedWordsTests {
    /// Runs broken by everything that must stop them: rows ending at, before and after a word,
    /// double spaces and tabs, punctuation, emphasis and code, links (hyperlinks on), a word
    /// wider than a row, non-ASCII in a word, list items with a hanging indent, quotes, a table,
    /// a heading, trailing spaces, a word that ends the line.
    static let text = """
        # A heading with several words in it that wrap
        A paragraph with words that fill the row to exactly the last cell and then some more words.
        Two  spaces,	a tab, and punctuation: commas, periods. (parentheses) "quotes" and 'apostrophes'.
        Emphasis *in the middle of* words, **strong words here** and `code span with spaces` too.
        A [link with several words](https://example.com/a) and <https://example.com/b> autolinks.
        A verylongwordthatiswiderthananyrowofthisterminalwhatsoever then short words after it.
        Words with é accents and 中文 and emoji 😀 between plain words that fit on the row.
        中文文本没有空格，所以要在字符之间换行；还有表情符号😀和汉字「引号」里面的字。最後の文字、終わり。
        混合mixed中文text和English单词 words 与标点：冒号，逗号。(括号)中文
        *强调的中文文字*和`代码中的中文字`还有[链接中文字](https://example.com/c)结束
        Trailing spaces   
        - a list item whose text is long enough to wrap onto its hanging indent twice or more over
          continued here with more plain words to place
        > a quote with words that wrap inside the quote bars at the narrower widths here
        | a cell with words | another cell |
        |---|---|
        | words in a cell that may wrap | x |

        | Name | Value  | Note |
        |:-----|-------:|:----:|
        | alpha  two  spaces | 1.5 | a-b, c; d? (e) "f" 'g' |
        | beta | 22 | *first* and `second` |
        | *first* | `second` | [link](https://example.com/d) |
        | ~~gone~~ | !bang | <https://example.com/e> |
        | a_b_ | x\\*y | _plain_ |
        | 中文 | é | x \\| y |

        ```python
        def double(x: int) -> int:  # a comment, 中文
        \treturn x * 2 if x else "a string with\ttabs"  # the end
        @decorator
        ```
        ```swift
        /* a block comment
           over lines */ let s = "text \\(x) 😀"; let n = 0x1F + 2
        ```
        ```nolanguage
        plain  code\twith tabs and 中文
        ```

        last words on the last line
        """

    @Test(arguments: [12, 17, 23, 30, 41, 57, 80])
    func sameBytesAsEveryWordPlacedAlone(width: Int) {
        for escapes in [true, false] {
            let theme = MarkdownTheme(escapes: escapes, colour: escapes, hyperlinks: escapes)
            for size in [0, 1, 3, 7] {
                let pieces = size == 0 ? [Self.text] : Self.pieces(size)
                let runs = Self.render(pieces, width: width, theme: theme)
                let alone = Self.render(pieces, width: width, theme: theme, runsAtOnce: false)
                #expect(runs == alone, "escapes \(escapes), pieces of \(size)")
            }
        }
    }

    @Test(arguments: [12, 17, 23, 30, 41, 57, 80])
    func sameScreenAsTheTokensOneAtATime(width: Int) {
        let theme = MarkdownTheme(escapes: true, colour: true, hyperlinks: true)
        let whole = ScreenModel.after(Self.render([Self.text], width: width, theme: theme), width: width)
        let streamed = ScreenModel.after(Self.render(Self.pieces(1), width: width, theme: theme), width: width)
        #expect(streamed.styledLines == whole.styledLines)
    }

    @Test(arguments: [12, 17, 23, 30, 41, 57, 80])
    func sameBytesWithoutEscapes(width: Int) {
        let theme = MarkdownTheme(escapes: false, colour: false, hyperlinks: false)
        #expect(
            Self.render([Self.text], width: width, theme: theme)
                == Self.render(Self.pieces(1), width: width, theme: theme))
    }

    /// The text in pieces of `size` scalars.
    private static func pieces(_ size: Int) -> [String] {
        let scalars = Array(text.unicodeScalars)
        return stride(from: 0, to: scalars.count, by: size).map { start in
            var piece = ""
            piece.unicodeScalars.append(contentsOf: scalars[start..<min(start + size, scalars.count)])
            return piece
        }
    }

    private static func render(_ pieces: [String], width: Int, theme: MarkdownTheme, runsAtOnce: Bool = true)
        -> String
    {
        var stream = MarkdownStream(theme: theme, width: { width }, runsAtOnce: runsAtOnce)
        var out: [UInt8] = []
        for piece in pieces { out += stream.feed(piece) }
        out += stream.finish()
        return String(decoding: out, as: UTF8.self)
    }
}
