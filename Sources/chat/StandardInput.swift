#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard input: a terminal, or piped text read to its end.
enum StandardInput {
    static var isTerminal: Bool { isatty(0) == 1 }

    /// All of standard input, as bytes.
    static func readBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        return bytes
    }

    /// All of standard input as text, or nil when it is empty or only whitespace.
    static func readAll() -> String? {
        let text = String(decoding: readBytes(), as: UTF8.self)
        guard text.contains(where: { !$0.isWhitespace }) else { return nil }
        var trimmed = Substring(text)
        while let last = trimmed.last, last.isNewline { trimmed.removeLast() }
        return String(trimmed)
    }
}
