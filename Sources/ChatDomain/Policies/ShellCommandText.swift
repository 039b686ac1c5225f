/// The command in an answer to a request for one (`chat -x`): models asked for a bare command
/// still wrap it in a code fence or backticks now and then, or write a prompt sign before it.
public enum ShellCommandText {
    /// The command `answer` holds: the first fenced block's lines if there is one, else the
    /// answer; without surrounding backticks, a leading `$ ` on each line, and the blank lines
    /// around it. Empty when there is none.
    public static func command(in answer: String) -> String {
        var lines = answer.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let open = lines.firstIndex(where: { $0.trimmed.hasPrefix("```") }) {
            let rest = lines[(open + 1)...]
            let close = rest.firstIndex { $0.trimmed.hasPrefix("```") } ?? lines.endIndex
            lines = Array(lines[(open + 1)..<close])
        }
        var text = lines.map { line -> String in
            let trimmed = line.trimmed
            return trimmed.hasPrefix("$ ") ? String(trimmed.dropFirst(2)) : line
        }.joined(separator: "\n").trimmed
        if text.count >= 2 && text.hasPrefix("`") && text.hasSuffix("`") && !text.dropFirst().dropLast().contains("`") {
            text = String(text.dropFirst().dropLast()).trimmed
        }
        return text
    }
}

extension String {
    /// Without leading and trailing whitespace and newlines.
    fileprivate var trimmed: String {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return start < end ? String(self[start..<end]) : ""
    }
}
