/// A DTO read from a JSON object: `read(_:from:)` is a `switch` over the keys it reads, a line
/// each (`case "content": try reader.read(&content)`), each value read as the type of its field
/// (a value of another type leaves the field nil; a key that appears twice has its last value),
/// and `default: try reader.skipValue()` passes over every other member, whatever it holds.
public protocol JSONObjectDTO: JSONReadable {
    /// An empty DTO, every field unset, that the members are read into.
    init()
    /// Reads the member `key`, whose value is next in `reader`.
    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError)
}

extension JSONObjectDTO {
    public static func read(from reader: inout JSONReader) throws(JSONSyntaxError) -> Self? {
        guard reader.current == UInt8(ascii: "{") else {
            try reader.skipValue()
            return nil
        }
        return try reader.readObject(Self.self)
    }

    public static func patch(_ value: inout Self, with patcher: inout JSONPatcher) -> Bool {
        guard let key = patcher.nextKey() else { return false }
        do {
            try value.read(key, from: &patcher)
        } catch {
            return false
        }
        return patcher.patched
    }
}
