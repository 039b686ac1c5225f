/// HTML's character references: numeric ones (`&#233;`, `&#xE9;`) and the named ones pages use
/// most; an unknown name is left as written.
enum HTMLEntities {
    private static let named: [Substring: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "copy": "©", "reg": "®",
        "trade": "™", "mdash": "—", "ndash": "–", "hellip": "…", "laquo": "«", "raquo": "»", "lsquo": "‘",
        "rsquo": "’", "ldquo": "“", "rdquo": "”", "bull": "•", "middot": "·", "times": "×", "divide": "÷",
        "deg": "°", "euro": "€", "pound": "£", "yen": "¥", "cent": "¢", "sect": "§", "para": "¶", "plusmn": "±",
        "larr": "←", "rarr": "→", "uarr": "↑", "darr": "↓", "hearts": "♥", "check": "✓", "shy": "",
        "zwj": "\u{200D}", "zwnj": "\u{200C}", "thinsp": "\u{2009}", "ensp": "\u{2002}", "emsp": "\u{2003}",
    ]

    /// `text` with its character references replaced by what they stand for.
    static func decode(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            let name = after.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "#") }.prefix(32)
            var replaced: String?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                replaced = UInt32(name.dropFirst(2), radix: 16).flatMap(Self.scalar)
            } else if name.hasPrefix("#") {
                replaced = UInt32(name.dropFirst()).flatMap(Self.scalar)
            } else {
                replaced = named[name]
            }
            if let replaced {
                result += replaced
                rest = after[name.endIndex...]
                if rest.first == ";" { rest = rest.dropFirst() }
            } else {
                result += "&"
                rest = after
            }
        }
        return result + rest
    }

    private static func scalar(_ value: UInt32) -> String? {
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return String(Character(scalar))
    }
}
