/// Fetched text as chat attaches it: decoded and made safe.
enum WebText {
    /// `bytes` as text: UTF-8 when they are (or the charset says so, invalid bytes replaced),
    /// else ISO-8859-1, whose every byte is a character (HTTP's old default, and what most pages
    /// that are not UTF-8 are near enough).
    static func decode(_ bytes: [UInt8], charset: String?) -> String {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        if let text = String(validating: body, as: UTF8.self) { return text }
        if charset == "utf-8" || charset == "utf8" { return String(decoding: body, as: UTF8.self) }
        var text = String.UnicodeScalarView()
        for byte in body { text.append(Unicode.Scalar(byte)) }
        return String(text)
    }

    /// `text` without what a terminal would act on or that could make it read as something
    /// else: control characters but line breaks and tabs (so escape sequences lose their ESC),
    /// DEL, C1 controls and the bidirectional embedding, override and isolate characters. CR LF
    /// becomes LF.
    static func cleaned(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.replacing("\r\n", with: "\n").unicodeScalars {
            let value = scalar.value
            if value == 0x0A || value == 0x09 {
                scalars.append(scalar)
                continue
            }
            if value < 0x20 || value == 0x7F || (0x80...0x9F).contains(value) { continue }
            if (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) { continue }
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
