import ChatDomain

/// A type whose values `JSONReader` reads: strings, numbers, booleans, arrays of such values, any
/// JSON (`JSONValue`), and DTOs (`JSONObjectDTO`).
public protocol JSONReadable {
    /// The value at the reader's position (there is one), or nil if it is JSON of another type,
    /// which is then checked and skipped.
    static func read(from reader: inout JSONReader) throws(JSONSyntaxError) -> Self?
    /// Puts `patcher`'s string where its path leads inside `value` (`JSONShape`); false if it
    /// cannot (then the text is read in full). By default a value holds no such string.
    static func patch(_ value: inout Self, with patcher: inout JSONPatcher) -> Bool
}

extension JSONReadable {
    public static func patch(_ value: inout Self, with patcher: inout JSONPatcher) -> Bool { false }

    /// `patch`, on this value in place.
    public mutating func patch(with patcher: inout JSONPatcher) -> Bool {
        Self.patch(&self, with: &patcher)
    }
}

/// A string value read for a `String` field (or element) is where a reading of the same shape
/// finds its new string (`JSONShape`).
extension String: JSONReadable {
    @inline(__always)
    public static func read(from reader: inout JSONReader) throws(JSONSyntaxError) -> String? {
        if reader.current == JSONReader.quote { return try reader.readFieldString() }
        if reader.readNull() { return nil }
        try reader.skipValue()
        return nil
    }

    public static func patch(_ value: inout String, with patcher: inout JSONPatcher) -> Bool {
        guard patcher.atEnd else { return false }
        value = patcher.string
        return true
    }
}

extension Double: JSONReadable {
    @inline(__always)
    public static func read(from reader: inout JSONReader) throws(JSONSyntaxError) -> Double? {
        if reader.atNumber { return try reader.readNumber() }
        if reader.readNull() { return nil }
        try reader.skipValue()
        return nil
    }
}

/// A whole number that fits an `Int` (`3`, `3.0`, `3e0`); any other number counts as of another
/// type.
extension Int: JSONReadable {
    @inline(__always)
    public static func read(from reader: inout JSONReader) throws(JSONSyntaxError) -> Int? {
        try Double.read(from: &reader).flatMap { Int(exactly: $0) }
    }
}

extension Bool: JSONReadable {
    public static func read(from reader: inout JSONReader) throws(JSONSyntaxError) -> Bool? {
        switch reader.current {
        case UInt8(ascii: "t"):
            try reader.readLiteral("true")
            return true
        case UInt8(ascii: "f"):
            try reader.readLiteral("false")
            return false
        default:
            try reader.skipValue()
            return nil
        }
    }
}

extension JSONValue: JSONReadable {
    public static func read(from reader: inout JSONReader) throws(JSONSyntaxError) -> JSONValue? {
        try reader.readValue()
    }
}

/// An array's elements of `Element`'s type; elements of another type are left out.
extension Array: JSONReadable where Element: JSONReadable {
    public static func read(from reader: inout JSONReader) throws(JSONSyntaxError) -> [Element]? {
        guard reader.current == UInt8(ascii: "[") else {
            try reader.skipValue()
            return nil
        }
        var elements: [Element] = []
        try reader.readElements { reader throws(JSONSyntaxError) in
            reader.enterElement(elements.count)
            if let element: Element = try reader.read() { elements.append(element) }
            reader.leaveElement()
        }
        return elements
    }

    public static func patch(_ value: inout [Element], with patcher: inout JSONPatcher) -> Bool {
        guard let index = patcher.nextElement(), value.indices.contains(index) else { return false }
        return Element.patch(&value[index], with: &patcher)
    }
}
