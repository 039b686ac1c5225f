/// Puts a new string where a path from a `JSONShape` leads: through the members (by key) and
/// elements (by index) of a DTO read earlier, to a `String` field, in place. It walks the DTO
/// through the DTO's own `read(_:from:)`, so it reaches exactly the field a reading would.
public struct JSONPatcher: JSONFieldReader {
    /// The string to put there.
    let string: String
    /// The bytes the path's keys lie in.
    private let template: UnsafeBufferPointer<UInt8>
    private var steps: ArraySlice<JSONPathStep>
    /// The string went in.
    private(set) var patched = false

    init(_ string: String, along steps: ArraySlice<JSONPathStep>, keysIn template: UnsafeBufferPointer<UInt8>) {
        self.string = string
        self.steps = steps
        self.template = template
    }

    /// Whether the path has been walked to its end.
    var atEnd: Bool { steps.isEmpty }

    /// The next step if it is a member: its key.
    mutating func nextKey() -> JSONKey? {
        guard case .key(let range, let escaped)? = steps.first else { return nil }
        steps.removeFirst()
        return JSONKey(UnsafeBufferPointer(rebasing: template[range]), escaped: escaped)
    }

    /// The next step if it is an element: its index.
    mutating func nextElement() -> Int? {
        guard case .element(let index)? = steps.first else { return nil }
        steps.removeFirst()
        return index
    }

    public mutating func read<Value: JSONReadable>(_ field: inout Value?) {
        patched = field?.patch(with: &self) ?? false  // in place: the optional's value is not copied
    }

    /// A value compared is never where a path leads.
    public mutating func read(_ field: inout Bool?, equalTo text: StaticString) {}

    /// A member the DTO does not read is never where a path leads.
    public mutating func skipValue() {}
}
