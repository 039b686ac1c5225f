/// A few words around a search match, with the matched words marked, as a search shows them.
public struct MatchSnippet: Sendable, Equatable {
    /// One run of the snippet's text: matched words or the text between them.
    public struct Part: Sendable, Equatable {
        /// The text, on one line.
        public var text: String
        /// Whether these are words the search matched.
        public var isMatch: Bool

        /// Creates a run of text.
        public init(_ text: String, isMatch: Bool = false) {
            self.text = text
            self.isMatch = isMatch
        }
    }

    /// The runs, in order.
    public var parts: [Part]

    /// Creates a snippet from its runs.
    public init(_ parts: [Part]) {
        self.parts = parts
    }

    /// The snippet's text without marks.
    public var text: String {
        parts.map(\.text).joined()
    }
}
