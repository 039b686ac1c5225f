/// A value in a text whose bytes may differ from one text of a shape to the next: a string (the
/// bytes between its quotes) and the path to the `String` field it was read into (nil when its
/// text decides nothing), or a number passed over (its bytes: a counter such as a stream's
/// `sequence_number`, which no two events share).
struct JSONHole {
    var range: Range<Int>
    /// Its steps in `JSONShapeRecorder.steps`.
    var path: Range<Int>?
    /// A number passed over, not a string.
    var isNumber = false
}
