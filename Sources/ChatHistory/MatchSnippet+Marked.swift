import ChatDomain

extension MatchSnippet {
    /// The snippet in `text`, whose matches SQLite put between \u{1} and \u{2}, on one line.
    init(marked text: String) {
        var parts: [MatchSnippet.Part] = []
        var current = ""
        var inMatch = false
        var lastWasSpace = false
        func flush() {
            if !current.isEmpty { parts.append(MatchSnippet.Part(current, isMatch: inMatch)) }
            current = ""
        }
        for character in text {
            switch character {
            case "\u{1}":
                flush()
                inMatch = true
            case "\u{2}":
                flush()
                inMatch = false
            case _ where character.isWhitespace || (character.asciiValue ?? 32) < 32:
                if !lastWasSpace { current.append(" ") }
                lastWasSpace = true
                continue
            default:
                current.append(character)
            }
            lastWasSpace = false
        }
        flush()
        self.init(parts)
    }
}
