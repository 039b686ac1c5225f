#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON coders the Data layer shares: one of each, configured once, reused per piece.
package enum JSON {
    package static func decoder() -> JSONDecoder { JSONDecoder() }

    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], using decoder: JSONDecoder) throws -> T {
        try decoder.decode(type, from: Data(bytes))
    }

    package static func decode<T: Decodable>(_ type: T.Type, from text: String, using decoder: JSONDecoder) throws -> T
    {
        try decoder.decode(type, from: Data(text.utf8))
    }
}
