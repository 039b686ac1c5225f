import ChatDomain

/// Shows one answer as its events arrive, on the task that reads it. The plain printer is the
/// first implementation; markdown rendering and JSON lines are others.
public protocol AnswerRenderer: AnyObject {
    /// The request is on its way, in the stored conversation `conversation` (nil when it is not
    /// stored); before any event. The JSON lines say so; the Markdown renderer pays its first-use
    /// costs meanwhile.
    func started(conversation: String?)
    /// The answer, whole, does not match its schema (`--schema`): `line` says where and how.
    /// Only the JSON lines say so; the presenter writes the line on stderr.
    func mismatched(_ line: String)
    /// Shows what `event` carries, at once.
    func render(_ event: ChatEvent)
    /// The answer has ended, whole or not: completes what is shown (e.g. ends its last line).
    func finish(_ turn: Turn)
    /// Whether any answer text was shown.
    var printedText: Bool { get }
    /// Whether the output's reader went away; the renderer then stopped the answer.
    var outputClosed: Bool { get }
}

extension AnswerRenderer {
    public func started(conversation: String?) {}
    public func mismatched(_ line: String) {}
}

/// Makes the renderer for each answer.
public typealias AnswerRendererFactory = @Sendable () -> any AnswerRenderer
