#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A key of a JSON object as `JSONReader` meets it: its text, lent for the member's reading only.
/// A DTO matches it against its keys in a `switch` (`case "content":`), byte for byte.
public struct JSONKey {
    /// The key's bytes between its quotes.
    @usableFromInline let raw: UnsafeBufferPointer<UInt8>
    /// Whether they hold escapes (rare): then the key is compared unescaped.
    @usableFromInline let escaped: Bool

    init(_ raw: UnsafeBufferPointer<UInt8>, escaped: Bool = false) {
        self.raw = raw
        self.escaped = escaped
    }

    /// The key's text.
    public var text: String {
        escaped ? JSONStringScanner.unescape(raw) : String(decoding: raw, as: UTF8.self)
    }

    /// Whether `key` is `name`.
    @inlinable @inline(__always)
    public static func ~= (name: StaticString, key: JSONKey) -> Bool {
        if key.escaped { return key.text == name.description }
        let count = name.utf8CodeUnitCount
        guard key.raw.count == count, let base = key.raw.baseAddress else { return count == 0 && key.raw.isEmpty }
        return memcmp(base, name.utf8Start, count) == 0
    }
}
