/// A string value in a text: the bytes between its quotes, and the path to the `String` field it
/// was read into (nil when its text decides nothing).
struct JSONHole {
    var range: Range<Int>
    /// Its steps in `JSONShapeRecorder.steps`.
    var path: Range<Int>?
}
