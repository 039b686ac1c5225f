import ChatDomain

/// Reads JSON that has no shape of its own into a `JSONValue`: the config file (checked key by
/// key afterwards, with precise messages), a `/save` file, a tool's arguments. Through
/// `JSONReader`, so by its rules: strict about the syntax (a syntax error names its line and
/// column), lenient about meaning.
package enum JSONParser {
    /// The deepest nesting read.
    package static var maxDepth: Int { JSONReader.maxDepth }

    /// The value `bytes` (UTF-8) hold.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        try JSONReader.read(JSONValue.self, from: bytes) ?? .null
    }

    /// The value `bytes` (UTF-8) hold.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        try JSONReader.read(JSONValue.self, from: bytes) ?? .null
    }

    /// The value `text` holds.
    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try JSONReader.read(JSONValue.self, from: text) ?? .null
    }
}
