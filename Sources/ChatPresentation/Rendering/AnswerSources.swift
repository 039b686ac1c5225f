import ChatDomain
import ChatRendering

/// The sources an answer cites from the server's web search, each URL once, numbered in the
/// order first cited; listed after the answer as `[1] Title — URL` lines. Titles and URLs are
/// the server's text: made safe to print, one line each.
struct AnswerSources {
    private(set) var cited: [WebCitation] = []
    private var seen: Set<String> = []

    /// No sources yet.
    init() {}

    /// The sources of `citations` (a stored answer's), each once.
    init(_ citations: [WebCitation]) {
        for citation in citations { _ = add(citation) }
    }

    /// Adds `citation`; returns its number when it is a source not cited before, else nil.
    mutating func add(_ citation: WebCitation) -> Int? {
        guard seen.insert(citation.url).inserted else { return nil }
        cited.append(citation)
        return cited.count
    }

    var isEmpty: Bool { cited.isEmpty }

    /// The list: a blank line, then a line per source; with `hyperlinks`, each title a
    /// hyperlink to its URL. Empty when nothing was cited.
    func list(hyperlinks: Bool) -> String {
        guard !cited.isEmpty else { return "" }
        var text = "\n"
        for (index, source) in cited.enumerated() {
            text += Self.line(number: index + 1, source, hyperlinks: hyperlinks) + "\n"
        }
        return text
    }

    /// A line per source, as `list` writes them, without the blank line.
    var lines: [String] {
        cited.enumerated().map { Self.line(number: $0.offset + 1, $0.element, hyperlinks: false) }
    }

    /// `[n] Title — URL` (`[n] URL` without a title).
    static func line(number: Int, _ source: WebCitation, hyperlinks: Bool) -> String {
        let url = ServerText.line(source.url, limit: 2_000)
        let title = ServerText.line(source.title, limit: 200)
        guard !title.isEmpty else { return "[\(number)] " + (hyperlinks ? Hyperlink.linked(url, to: url) : url) }
        return "[\(number)] " + (hyperlinks ? Hyperlink.linked(title, to: source.url) : title) + " — " + url
    }
}
