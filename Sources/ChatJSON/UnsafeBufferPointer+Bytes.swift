#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are exactly those of `literal`: a length check and one `memcmp`, not
    /// the generic `elementsEqual` (docs/PERFORMANCE.md, "Numbers once quoted in the code").
    public func hasBytes(of literal: StaticString) -> Bool {
        guard count == literal.utf8CodeUnitCount else { return false }
        guard let base = baseAddress else { return count == 0 }
        return memcmp(base, literal.utf8Start, count) == 0
    }
}
