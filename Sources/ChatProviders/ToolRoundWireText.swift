import ChatDomain

/// A tool round as text, for a provider that cannot take it as it is (no tools offered in this
/// run, a call whose arguments are not an object, a call without its result): the same words
/// whichever provider sends them, so a conversation reads alike wherever it goes on.
enum ToolRoundWireText {
    /// `[tool call: NAME ARGUMENTS]`.
    static func call(name: String, arguments: String) -> String {
        "[tool call: \(name) \(arguments)]"
    }

    /// `[tool result of NAME: TEXT]` (`tool error` for a failed call; without `of NAME` when the
    /// call is not known).
    static func result(_ result: ToolResult, name: String?) -> String {
        let tool = name.map { " of \($0)" } ?? ""
        return "[tool \(result.isError ? "error" : "result")\(tool): \(result.text)]"
    }
}
