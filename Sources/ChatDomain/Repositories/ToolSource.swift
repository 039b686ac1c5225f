/// Where the tools an answer may call come from (MCP servers, in the Data layer): what they are,
/// and running one.
public protocol ToolSource: Sendable {
    /// The tools offered, each under a name unique among them. A source that cannot be reached
    /// offers none of its tools (and says so through its `ToolProblemReporter`); the chat goes on.
    /// Asked again before each answer of a turn: the tools may change between rounds.
    func tools() async -> [ToolDefinition]

    /// Runs `tool` (one `tools()` offered) with the arguments of `call`, and returns what it gave.
    /// A tool that fails, times out or is cancelled (the calling task) gives an error result
    /// (`isError`): every call has a result.
    func call(_ call: ToolCall, tool: ToolDefinition) async -> ToolResult

    /// Runs `tool` as `call(_:tool:)` does, telling `progress` how far it has got whenever its
    /// server says (never after it returns).
    func call(_ call: ToolCall, tool: ToolDefinition, progress: @escaping @Sendable (ToolProgress) -> Void) async
        -> ToolResult
}

extension ToolSource {
    /// A source whose tools tell no progress runs the call as `call(_:tool:)` does.
    public func call(
        _ call: ToolCall, tool: ToolDefinition, progress: @escaping @Sendable (ToolProgress) -> Void
    ) async -> ToolResult {
        await self.call(call, tool: tool)
    }
}
