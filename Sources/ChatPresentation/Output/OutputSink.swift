/// Where presenters write text: standard output, standard error, or a test's buffer.
public protocol OutputSink: AnyObject, Sendable {
    /// Writes `text` at once (no buffering); returns false when the reader has gone away.
    @discardableResult
    func write(_ text: String) -> Bool
    /// Writes UTF-8 `bytes` at once; returns false when the reader has gone away.
    @discardableResult
    func write(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool
    /// Whether this is a terminal a person watches (colour and indicators allowed).
    var isTerminal: Bool { get }
}

extension OutputSink {
    @discardableResult
    public func write(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        write(String(decoding: bytes, as: UTF8.self))
    }
}
