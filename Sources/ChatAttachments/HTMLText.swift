/// A web page's readable text, as Markdown: what a model should read of `text/html`, without what
/// a browser would not show or what is only the site's furniture.
///
/// Dropped, with everything inside: `script`, `style`, `nav`, `noscript`, `template`, `head`,
/// `title`, `svg`, `iframe`, `canvas`, `object`, and any element with the `hidden` attribute,
/// `aria-hidden="true"` or an inline `display: none`. Kept as Markdown: headings (`#`), paragraphs,
/// lists (nested, numbered), tables (pipe tables, the first row as the header), links
/// (`[text](absolute URL)`), `pre` as fenced code, `code`, `strong`/`b` and `em`/`i`, `br`, `hr`,
/// an image's `alt` text. Whitespace is collapsed as a browser collapses it.
///
/// Written here rather than taken from a library: no package on the fixed Swift list parses HTML
/// (SwiftSoup is not on it), and Debian's parsers are C libraries that every start of chat would
/// load: libxml2 brings libicuuc, libicudata (31 MB), liblzma and a shared libstdc++ (which chat's
/// release build links statically to save about 1 MiB resident per run), measured with `ldd` on
/// this machine; gumbo (libgumbo 0.10.1, whose upstream is archived) would be a new system
/// dependency and C module for what a few hundred lines do here. A page only needs its text, not
/// a spec-exact tree: an unclosed element is closed by its parent's end tag.
struct HTMLText {
    private var out: [UInt8] = []
    private var stack: [String] = []
    /// While set, the elements from this depth of `stack` on are dropped.
    private var skipDepth: Int?
    /// Line breaks owed before the next text: 1 a new line, 2 a blank line.
    private var pendingBreak = 0
    private var pendingSpace = false
    private var preDepth = 0
    private var lists: [(ordered: Bool, count: Int)] = []
    private var links: [(start: Int, href: String?)] = []
    private var tables: [Table] = []
    private let base: WebAddress?

    private struct Table {
        var start: Int
        var rows: [[String]] = []
        var row: [String]?
        var cellStart: Int?
    }

    private static let dropped: Set<String> = [
        "script", "style", "nav", "noscript", "template", "head", "title", "svg", "iframe", "canvas", "object",
    ]
    private static let void: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr",
    ]
    private static let paragraphs: Set<String> = [
        "p", "blockquote", "figure", "section", "article", "main", "header", "footer", "aside", "dl", "details",
        "address",
    ]
    private static let lines: Set<String> = [
        "div", "dt", "dd", "summary", "figcaption", "caption", "form", "fieldset", "center", "body",
    ]

    /// The Markdown text of `html`; links are made absolute against `base`.
    static func markdown(_ html: String, base: WebAddress?) -> String {
        var converter = HTMLText(base: base)
        var tokens = HTMLTokenizer(html)
        while let token = tokens.next() { converter.take(token) }
        while converter.out.last == 0x20 || converter.out.last == 0x0A { converter.out.removeLast() }
        return String(decoding: converter.out, as: UTF8.self)
    }

    private init(base: WebAddress?) {
        self.base = base
    }

    private mutating func take(_ token: HTMLToken) {
        switch token {
        case .text(let text): if skipDepth == nil { self.text(text) }
        case .start(let name, let attributes): start(name, attributes)
        case .end(let name): end(name)
        }
    }

    private static func hides(_ name: String, _ attributes: [String: String]) -> Bool {
        if dropped.contains(name) || attributes["hidden"] != nil { return true }
        if attributes["aria-hidden"]?.lowercased() == "true" { return true }
        let style = (attributes["style"] ?? "").lowercased().filter { !$0.isWhitespace }
        return style.contains("display:none")
    }

    private mutating func start(_ name: String, _ attributes: [String: String]) {
        let isVoid = Self.void.contains(name)
        if skipDepth != nil || Self.hides(name, attributes) {
            if !isVoid {
                if skipDepth == nil { skipDepth = stack.count }
                stack.append(name)
            }
            return
        }
        if !isVoid { stack.append(name) }
        switch name {
        case "h1", "h2", "h3", "h4", "h5", "h6":
            block(2)
            emit(String(repeating: "#", count: Int(String(name.last!)) ?? 1) + " ")
        case "ul", "ol":
            block(lists.isEmpty ? 2 : 1)
            lists.append((name == "ol", Int(attributes["start"] ?? "") ?? 1))
        case "li":
            block(1)
            let indent = String(repeating: "   ", count: max(lists.count - 1, 0))
            if let last = lists.indices.last, lists[last].ordered {
                emit(indent + "\(lists[last].count). ")
                lists[last].count += 1
            } else {
                emit(indent + "- ")
            }
        case "a":
            emitInline("[")
            links.append((out.count - 1, attributes["href"]))
        case "img":
            if let alt = attributes["alt"], !alt.isEmpty { text(alt) }
        case "br": preDepth > 0 ? out.append(0x0A) : block(1)
        case "hr":
            block(2)
            emit("---")
            block(2)
        case "pre":
            block(2)
            emit("```\n")
            preDepth += 1
        case "code" where preDepth == 0: emitInline("`")
        case "strong", "b": emitInline("**")
        case "em", "i": emitInline("*")
        case "table":
            block(2)
            flush()
            tables.append(Table(start: out.count))
        case "tr":
            endRow()
            if !tables.isEmpty { tables[tables.count - 1].row = [] }
        case "td", "th":
            endCell()
            if !tables.isEmpty {
                if tables[tables.count - 1].row == nil { tables[tables.count - 1].row = [] }
                tables[tables.count - 1].cellStart = out.count
                pendingSpace = false
            }
        default:
            if Self.paragraphs.contains(name) { block(2) } else if Self.lines.contains(name) { block(1) }
        }
    }

    private mutating func end(_ name: String) {
        guard let index = stack.lastIndex(of: name) else { return }
        stack.removeSubrange(index...)
        if let depth = skipDepth {
            if stack.count <= depth { skipDepth = nil }
            return
        }
        switch name {
        case "h1", "h2", "h3", "h4", "h5", "h6": block(2)
        case "ul", "ol":
            if !lists.isEmpty { lists.removeLast() }
            block(lists.isEmpty ? 2 : 1)
        case "li": block(1)
        case "a": endLink()
        case "pre":
            if out.last != 0x0A { out.append(0x0A) }
            out.append(contentsOf: "```".utf8)
            preDepth = max(preDepth - 1, 0)
            block(2)
        case "code" where preDepth == 0: out.append(UInt8(ascii: "`"))
        case "strong", "b": out.append(contentsOf: "**".utf8)
        case "em", "i": out.append(UInt8(ascii: "*"))
        case "td", "th": endCell()
        case "tr": endRow()
        case "table": endTable()
        default:
            if Self.paragraphs.contains(name) { block(2) } else if Self.lines.contains(name) { block(1) }
        }
    }

    private mutating func text(_ text: String) {
        if preDepth > 0 {
            flush()
            var bytes = Array(text.utf8)
            // A newline right after `<pre>` is not part of its text.
            if out.last == 0x0A, bytes.first == 0x0A, out.suffix(4) == Array("```\n".utf8) { bytes.removeFirst() }
            out.append(contentsOf: bytes)
            return
        }
        for byte in text.replacing("\u{A0}", with: " ").utf8 {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                pendingSpace = true
                continue
            }
            flush()
            if pendingSpace && !atLineStart { out.append(0x20) }
            pendingSpace = false
            out.append(byte)
        }
    }

    private var atLineStart: Bool { out.isEmpty || out.last == 0x0A }

    /// Owes at least `lines` line breaks before what comes next.
    private mutating func block(_ lines: Int) {
        pendingBreak = max(pendingBreak, lines)
        pendingSpace = false
    }

    private mutating func flush() {
        guard pendingBreak > 0 else { return }
        while out.last == 0x20 { out.removeLast() }
        if !out.isEmpty {
            let trailing = out.reversed().prefix { $0 == 0x0A }.count
            for _ in min(trailing, pendingBreak)..<pendingBreak { out.append(0x0A) }
        }
        pendingBreak = 0
        pendingSpace = false
    }

    /// A block's own prefix (`## `, `- `), after the breaks owed.
    private mutating func emit(_ text: String) {
        flush()
        out.append(contentsOf: text.utf8)
        pendingSpace = false
    }

    /// An inline mark (`[`, `**`) where text would go, a space before it if one is owed.
    private mutating func emitInline(_ text: String) {
        flush()
        if pendingSpace && !atLineStart { out.append(0x20) }
        pendingSpace = false
        out.append(contentsOf: text.utf8)
    }

    private mutating func endLink() {
        guard let (start, href) = links.popLast(), start < out.count else { return }
        let label = out[(start + 1)...]
        if label.allSatisfy({ $0 == 0x20 || $0 == 0x0A }) {
            // A link with no text leaves nothing, not even the space written before its `[`.
            out.removeSubrange(start...)
            if out.last == 0x20 {
                out.removeLast()
                pendingSpace = true
            }
            return
        }
        if let target = href.flatMap(linkTarget) {
            out.append(contentsOf: "](\(target))".utf8)
        } else {
            out.remove(at: start)
        }
    }

    /// Where a link goes, made absolute; nil for a link within the page or to script.
    private func linkTarget(_ href: String) -> String? {
        let href = href.trimmingASCIIWhitespace()
        let lowered = href.lowercased()
        if href.isEmpty || href.hasPrefix("#") || lowered.hasPrefix("javascript:") { return nil }
        if lowered.hasPrefix("mailto:") { return href.replacing(" ", with: "%20") }
        guard let resolved = base?.resolving(href) ?? WebAddress(href) else { return nil }
        return resolved.text.replacing(" ", with: "%20").replacing(")", with: "%29")
    }

    private mutating func endCell() {
        guard let last = tables.indices.last, let start = tables[last].cellStart, start <= out.count else { return }
        let text = String(decoding: out[start...], as: UTF8.self)
        out.removeSubrange(start...)
        tables[last].cellStart = nil
        let cell = text.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacing("|", with: "\\|")
        tables[last].row = (tables[last].row ?? []) + [cell]
        pendingBreak = 0
        pendingSpace = false
    }

    private mutating func endRow() {
        endCell()
        guard let last = tables.indices.last, let row = tables[last].row else { return }
        if !row.isEmpty { tables[last].rows.append(row) }
        tables[last].row = nil
    }

    private mutating func endTable() {
        endRow()
        guard let table = tables.popLast() else { return }
        if table.start <= out.count { out.removeSubrange(table.start...) }
        guard let width = table.rows.map(\.count).max(), width > 0 else { return }
        let rows = table.rows.map { $0 + Array(repeating: "", count: width - $0.count) }
        var lines = ["| " + rows[0].joined(separator: " | ") + " |"]
        lines.append("|" + Array(repeating: " --- |", count: width).joined())
        lines += rows.dropFirst().map { "| " + $0.joined(separator: " | ") + " |" }
        block(2)
        emit(lines.joined(separator: "\n"))
        block(2)
    }
}
