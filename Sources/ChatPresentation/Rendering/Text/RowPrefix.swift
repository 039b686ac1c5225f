/// What starts a row of a `RowWriter`: indentation, a list marker, quote bars.
struct RowPrefix: Sendable {
    var segments: [(bytes: [UInt8], style: TextStyle)] = []
    var width = 0

    static let none = RowPrefix()

    /// This prefix followed by `count` spaces.
    func appendingSpaces(_ count: Int) -> RowPrefix {
        appending(Array(repeating: 0x20, count: count), width: count)
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
        copy.segments.append((bytes, style))
        copy.width += width
        return copy
    }
}
