/// What starts a row of a `RowWriter`: indentation, a list marker, quote bars.
struct RowPrefix: Sendable {
    var segments: [(bytes: [UInt8], style: TextStyle)] = []
    var width = 0

    static let none = RowPrefix()

    /// This prefix followed by `count` spaces (indentation alone, as a list item's text has,
    /// made once).
    func appendingSpaces(_ count: Int) -> RowPrefix {
        guard count > 0 else { return self }
        if segments.isEmpty && count < Self.indents.count { return Self.indents[count] }
        var copy = self
        copy.appendSpaces(count)
        return copy
    }

    /// This prefix followed by `text` in `style`.
    func appending(_ text: String, _ style: TextStyle = .plain) -> RowPrefix {
        let bytes = Array(text.utf8)
        return appending(bytes, width: CellWidth.of(bytes[...]), style)
    }

    /// This prefix followed by `bytes`, `width` cells wide, in `style`.
    func appending(_ bytes: [UInt8], width: Int, _ style: TextStyle = .plain) -> RowPrefix {
        guard !bytes.isEmpty else { return self }
        var copy = self
        copy.append(bytes, width: width, style)
        return copy
    }

    /// Adds `count` spaces (an array shared by every prefix when short: no allocation).
    mutating func appendSpaces(_ count: Int) {
        guard count > 0 else { return }
        append(count < Self.spaces.count ? Self.spaces[count] : Array(repeating: 0x20, count: count), width: count)
    }

    /// Adds `bytes`, `width` cells wide, in `style`, in place (no copy of the segments so far).
    mutating func append(_ bytes: [UInt8], width: Int, _ style: TextStyle = .plain) {
        guard !bytes.isEmpty else { return }
        segments.append((bytes, style))
        self.width += width
    }

    /// Runs of 0 to 15 spaces, made once.
    private static let spaces: [[UInt8]] = (0..<16).map { Array(repeating: 0x20, count: $0) }

    /// Prefixes of 0 to 15 spaces and nothing else.
    private static let indents: [RowPrefix] = (0..<16).map { count in
        var prefix = RowPrefix()
        prefix.appendSpaces(count)
        return prefix
    }
}
