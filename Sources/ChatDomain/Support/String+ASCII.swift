extension StringProtocol {
    /// The text without leading and trailing spaces, tabs, CR and LF.
    package func trimmingASCIIWhitespace() -> String {
        // Fast path, taken for nearly every stream event: when neither end byte is one of those
        // characters, neither end Character is, so there is nothing to trim and no need to walk
        // the text Character by Character.
        let text = String(self)  // no copy when self is a String
        let isSpaceByte: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let firstByte = text.utf8.first, let lastByte = text.utf8.last else { return "" }
        if !isSpaceByte(firstByte) && !isSpaceByte(lastByte) { return text }

        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else {
            return ""
        }
        return String(text[first...last])
    }
}
