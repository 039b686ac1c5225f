import ChatDomain

/// Reads JSON that has no shape of its own into a `JSONValue`: the config file (checked key by
/// key afterwards, with precise messages), a `/save` file, a tool's arguments. Through
/// `JSONReader`, so by its rules: strict about the syntax (a syntax error names its line and
/// column), lenient about meaning.
public enum JSONParser {
    /// The deepest nesting read.
    public static var maxDepth: Int { JSONReader.maxDepth }

    /// The value `bytes` (UTF-8) hold.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        try JSONReader.read(JSONValue.self, from: bytes) ?? .null
    }

    /// The value `bytes` (UTF-8) hold.
    public static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try JSONReader.read(JSONValue.self, from: bytes) ?? .null
    }

    /// The value `text` holds.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONReader.read(JSONValue.self, from: text) ?? .null
    }
}
