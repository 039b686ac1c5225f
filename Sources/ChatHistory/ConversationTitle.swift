/// The title a stored conversation gets from its first question.
enum ConversationTitle {
    /// The first words of a message's first paragraph, on one line: what was typed, not the
    /// files attached after it (a blank line apart) or a piped text after the prompt.
    static func make(from text: String) -> String {
        // Line by line rather than a regex: a regex here cost every stored question the runtime
        // regex parser (docs/PERFORMANCE.md, round 7).
        var words: [Substring] = []
        for line in text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false) {
            let lineWords = Substring(line).split(whereSeparator: \.isWhitespace)
            if lineWords.isEmpty {
                if words.isEmpty { continue } else { break }  // a blank line ends the paragraph
            }
            words += lineWords
            if words.count >= 8 { break }
        }
        // Joined by hand: `joined(separator:)` on the words ran unspecialized, its metadata made
        // at run time (docs/PERFORMANCE.md, round 17).
        var title = ""
        for index in 0..<min(words.count, 8) {
            if index > 0 { title.append(" ") }
            title.append(contentsOf: words[index])
        }
        return title.count > 60 ? String(title.prefix(59)) + "…" : title
    }
}
