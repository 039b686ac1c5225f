import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An `OutputSink` over a file descriptor, unbuffered: each piece reaches the reader at once.
public final class FileDescriptorSink: OutputSink {
    private let fd: Int32
    private let closed = Atomic<Bool>(false)
    public let isTerminal: Bool

    /// Writes to `fd` (1 for standard output, 2 for standard error).
    public init(fd: Int32) {
        self.fd = fd
        self.isTerminal = isatty(fd) == 1
    }

    @discardableResult
    public func write(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { write(utf8: $0) }
    }

    @discardableResult
    public func write(utf8 buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !closed.load(ordering: .relaxed) else { return false }
        let ok = { () -> Bool in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(fd, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += written
            }
            return true
        }()
        if !ok { closed.store(true, ordering: .relaxed) }
        return ok
    }
}

/// `write(2)`, which the sink's own `write` hides inside the class.
private func systemWrite(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, bytes, count)
}
