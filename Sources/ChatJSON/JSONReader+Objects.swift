/// Objects and arrays: their syntax, and a DTO read member by member.
extension JSONReader {
    /// Reads the object at the position (its `{`), handing each member's key to `member`, which
    /// reads the value (one level deeper).
    @inline(__always)
    mutating func readMembers(
        _ member: (JSONKey, inout JSONReader) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        position += 1  // {
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            return
        }
        if recording { recorder.beginObject() }
        var count = 0
        while true {
            skipWhitespace()
            guard current == Self.quote else {
                if current == UInt8(ascii: "}") && count > 0 { throw error("a comma before }") }
                throw error(current == nil ? "the text ends inside an object" : "a key in double quotes expected")
            }
            let (range, escaped) = try scanString()
            let key = JSONKey(UnsafeBufferPointer(rebasing: bytes[range]), escaped: escaped)
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("a colon expected after the key \"\(key.text)\"") }
            position += 1
            skipWhitespace()
            if recording { recorder.enterKey(range, escaped: escaped, in: bytes) }
            depth += 1
            try member(key, &self)
            depth -= 1
            if recording { recorder.leave() }
            count += 1
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                if recording { recorder.endObject() }
                return
            case nil: throw error("the text ends inside an object (a } is missing)")
            default: throw error("a comma or } expected after the value of \"\(key.text)\"")
            }
        }
    }

    /// Reads the array at the position (its `[`), letting `element` read each element (one
    /// level deeper).
    @inline(__always)
    mutating func readElements(_ element: (inout JSONReader) throws(JSONSyntaxError) -> Void) throws(JSONSyntaxError) {
        position += 1  // [
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            if current == UInt8(ascii: "]") { throw error("a comma before ]") }
            depth += 1
            try element(&self)
            depth -= 1
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return
            case nil: throw error("the text ends inside an array (a ] is missing)")
            default: throw error("a comma or ] expected after an array element")
            }
        }
    }

    /// The DTO in the object at the position (its `{`), each member read by `DTO.read(_:from:)`.
    @inline(__always)
    mutating func readObject<DTO: JSONObjectDTO>(_ type: DTO.Type) throws(JSONSyntaxError) -> DTO {
        var dto = DTO()
        try readMembers { key, reader throws(JSONSyntaxError) in try dto.read(key, from: &reader) }
        return dto
    }
}
