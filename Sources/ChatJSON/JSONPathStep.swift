/// One step of a path into a DTO.
enum JSONPathStep {
    /// A member, by its key's bytes (in the shape's template).
    case key(Range<Int>, escaped: Bool)
    /// An element of an array, by its index in the DTO's array.
    case element(Int)
}
