/// What running a tool gave, for the call it answers.
public struct ToolResult: Sendable, Equatable {
    /// The id of the call (`ToolCall.id`).
    public var callID: String
    /// The result: text and images.
    public var content: [MessagePart]
    /// The tool failed, or was not run: the model is told so.
    public var isError: Bool
    /// Why its server gave no result, when that is why the call failed (the content then says
    /// so to the model, in words presentation gives it).
    public var failure: ToolServerFailure?

    /// Creates a tool result.
    public init(callID: String, content: [MessagePart], isError: Bool = false) {
        self.callID = callID
        self.content = content
        self.isError = isError
    }

    /// The result of a call whose server gave none, because of `failure`.
    public init(callID: String, failure: ToolServerFailure) {
        self.init(callID: callID, content: [], isError: true)
        self.failure = failure
    }
}

extension ToolResult {
    /// Its content as text, for a provider that takes only text: the text parts, one after
    /// another, with a line in place of each image.
    public var text: String {
        content.map { part in
            switch part {
            case .text(let text): text
            case .image(let image): "[an image (\(image.mimeType)) that cannot be shown here]"
            case .toolCall, .toolResult, .thinking, .webSearch, .citation: ""
            }
        }.filter { !$0.isEmpty }.joined(separator: "\n")
    }
}

extension ToolResult {
    /// The result with at most `limit` bytes of text (cut at a character's edge), and a line
    /// saying how much was left out when it was cut.
    public func cut(toBytes limit: Int) -> ToolResult {
        var total = 0
        for case .text(let text) in content { total += text.utf8.count }
        guard total > limit else { return self }
        var left = limit
        var kept: [MessagePart] = []
        for part in content {
            guard case .text(let text) = part else {
                kept.append(part)
                continue
            }
            guard left > 0 else { continue }
            var end = text.utf8.index(text.utf8.startIndex, offsetBy: min(left, text.utf8.count))
            while end > text.startIndex && end.samePosition(in: text.unicodeScalars) == nil {
                end = text.utf8.index(before: end)
            }
            let piece = String(text[..<end])
            left -= piece.utf8.count
            kept.append(.text(piece))
        }
        kept.append(.text("[the result was cut here: \(total - limit) of its \(total) bytes were left out]"))
        var cut = self
        cut.content = kept
        return cut
    }
}
