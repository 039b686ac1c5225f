#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a reading in full notes for the `JSONShape` of what it reads: where the string values
/// lie, and for those read into a `String` field the path to it. A key that appears twice in an
/// object (a later value replaces an earlier one, and the paths to it with it), or a key with
/// escapes, leaves nothing to note: such text has no shape.
public struct JSONShapeRecorder {
    /// The string values, in the order of the text.
    private(set) var holes: [JSONHole] = []
    /// The holes' paths, one after another.
    private(set) var steps: [JSONPathStep] = []
    /// The text has no shape.
    private(set) var failed = false
    /// Where the reading is.
    private var path: [JSONPathStep] = []
    /// The keys of the objects being read, and where each object's begin. Not `[Range<Int>]`,
    /// whose type metadata cost a search of the binary's conformances on every run.
    private var keys: [Key] = []
    private var objects: [Int] = []

    /// A key's bytes: where they start, and how many.
    private struct Key {
        let start: Int
        let count: Int
    }

    mutating func beginObject() {
        objects.append(keys.count)
    }

    mutating func endObject() {
        keys.removeSubrange((objects.popLast() ?? 0)...)
    }

    /// The reading goes into member `range` (a key's bytes in `bytes`) of the object it is in.
    mutating func enterKey(_ range: Range<Int>, escaped: Bool, in bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        if escaped { failed = true }
        for other in keys[(objects.last ?? 0)...] where other.count == range.count {
            if memcmp(base + other.start, base + range.lowerBound, range.count) == 0 { failed = true }
        }
        keys.append(Key(start: range.lowerBound, count: range.count))
        path.append(.key(range, escaped: escaped))
    }

    /// The reading goes into element `index` of the DTO's array.
    mutating func enterElement(_ index: Int) {
        path.append(.element(index))
    }

    mutating func leave() {
        path.removeLast()
    }

    /// A string value read into a `String` field, where the reading is.
    mutating func field(_ range: Range<Int>) {
        let start = steps.count
        steps += path
        holes.append(JSONHole(range: range, path: start..<steps.count))
    }

    /// A string value whose text decides nothing (it is passed over).
    mutating func passedOver(_ range: Range<Int>) {
        holes.append(JSONHole(range: range, path: nil))
    }

    /// A number whose value decides nothing (it is passed over).
    mutating func passedOverNumber(_ range: Range<Int>) {
        holes.append(JSONHole(range: range, path: nil, isNumber: true))
    }
}
