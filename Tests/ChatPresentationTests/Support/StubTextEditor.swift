import ChatPresentation

/// A `TextEditor` that gives a fixed result and records the text it was opened on.
final class StubTextEditor: TextEditor {
    private let result: Result<String, EditorFailure>
    /// The initial text of each `edit` call, in order.
    private(set) var openedWith: [String] = []

    /// An editor whose every session ends with `result`.
    init(_ result: Result<String, EditorFailure>) {
        self.result = result
    }

    /// An editor in which the person writes `text` and saves.
    convenience init(writing text: String) {
        self.init(.success(text))
    }

    func edit(_ initial: String) -> Result<String, EditorFailure> {
        openedWith.append(initial)
        return result
    }
}
