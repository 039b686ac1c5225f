#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard input: a terminal, or piped text read to its end. What is there already (a file, an
/// empty or finished pipe) is read on the spot; a read that would wait for the writer goes to a
/// queue of its own (`BlockingWork`), never blocking Swift's cooperative pool.
enum StandardInput {
    static var isTerminal: Bool { isatty(0) == 1 }

    /// All of standard input, as bytes. `whileWaiting` runs first if the input is not all
    /// there yet (the writer is still writing).
    static func bytes(whileWaiting: () -> Void = {}) async -> [UInt8] {
        var bytes: [UInt8] = []
        if readWhileReady(into: &bytes) { return bytes }
        whileWaiting()
        return bytes + (await rest())
    }

    /// The rest of standard input, read on a queue of its own. (A function apart: the queue's
    /// generic machinery is then set up only when a read has to wait; docs/PERFORMANCE.md, round 12.)
    @inline(never)
    private static func rest() async -> [UInt8] {
        await BlockingWork.run("stdin") {
            var rest: [UInt8] = []
            while readChunk(into: &rest) {}
            return rest
        }
    }

    /// All of standard input as text, or nil when it is empty or only whitespace. `whileWaiting`
    /// runs first if the input is not all there yet.
    static func text(whileWaiting: () -> Void = {}) async -> String? {
        let text = String(decoding: await bytes(whileWaiting: whileWaiting), as: UTF8.self)
        guard text.contains(where: { !$0.isWhitespace }) else { return nil }
        var trimmed = Substring(text)
        while let last = trimmed.last, last.isNewline { trimmed.removeLast() }
        return String(trimmed)
    }

    /// One line of standard input, without its newline; nil at its end.
    static func line() async -> String? {
        await BlockingWork.run("stdin") { Swift.readLine(strippingNewline: true) }
    }

    /// Reads for as long as a read would not wait; true when the input has ended.
    private static func readWhileReady(into bytes: inout [UInt8]) -> Bool {
        var ready = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
        while poll(&ready, 1, 0) > 0 {
            guard readChunk(into: &bytes) else { return true }
        }
        return false
    }

    /// Reads what one `read` gives; false at the end of the input (or an error).
    private static func readChunk(into bytes: inout [UInt8]) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            bytes.append(contentsOf: buffer[0..<count])
            return true
        }
    }
}
