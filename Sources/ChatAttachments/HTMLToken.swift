/// A piece of an HTML page as `HTMLTokenizer` reads it.
enum HTMLToken: Equatable {
    /// Text between tags, character references already decoded.
    case text(String)
    /// A start tag: its name (lowercased) and attributes (names lowercased, values decoded).
    case start(name: String, attributes: [String: String])
    /// An end tag's name, lowercased.
    case end(String)
}
