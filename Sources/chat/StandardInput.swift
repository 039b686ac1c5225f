#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard input: a terminal, or piped text read to its end. The reads wait for the writer, so
/// they run on a queue of their own (`BlockingWork`).
enum StandardInput {
    static var isTerminal: Bool { isatty(0) == 1 }

    /// All of standard input, as bytes.
    static func bytes() async -> [UInt8] {
        await BlockingWork.run("stdin") { readBytes() }
    }

    /// All of standard input as text, or nil when it is empty or only whitespace.
    static func text() async -> String? {
        let text = String(decoding: await bytes(), as: UTF8.self)
        guard text.contains(where: { !$0.isWhitespace }) else { return nil }
        var trimmed = Substring(text)
        while let last = trimmed.last, last.isNewline { trimmed.removeLast() }
        return String(trimmed)
    }

    /// One line of standard input, without its newline; nil at its end.
    static func line() async -> String? {
        await BlockingWork.run("stdin") { Swift.readLine(strippingNewline: true) }
    }

    private static func readBytes() -> [UInt8] {
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
}
