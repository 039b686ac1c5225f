/// What a DTO reads its members from (`JSONObjectDTO.read(_:from:)`): `JSONReader`, reading the
/// text, and `JSONPatcher`, putting a new string where the last reading of the same shape found
/// one (`JSONShape`).
public protocol JSONFieldReader {
    /// Reads the member's value into `field`: nil if it is JSON of another type.
    mutating func read<Value: JSONReadable>(_ field: inout Value?) throws(JSONSyntaxError)
    /// Reads whether the member's value is the string `text` (nil if it is not a string),
    /// without making a `String` of it.
    mutating func read(_ field: inout Bool?, equalTo text: StaticString) throws(JSONSyntaxError)
    /// Passes over a member the DTO does not read (checking it).
    mutating func skipValue() throws(JSONSyntaxError)
}
