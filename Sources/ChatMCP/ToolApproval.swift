/// Which of an MCP server's tools run without asking: `auto_approve` in its `mcp_servers` entry
/// (`true`, or a list of its tool names) and `--yes-tools SERVER[.TOOL]`.
public enum ToolApproval: Sendable, Equatable {
    /// Every tool of the server.
    case all
    /// These tools, by the server's own names.
    case tools(Set<String>)

    /// Whether `tool` (the server's own name) runs without asking.
    public func covers(_ tool: String) -> Bool {
        switch self {
        case .all: return true
        case .tools(let names): return names.contains(tool)
        }
    }

    /// Both approvals together.
    package func adding(_ other: ToolApproval) -> ToolApproval {
        switch (self, other) {
        case (.tools(let mine), .tools(let theirs)): return .tools(mine.union(theirs))
        default: return .all
        }
    }
}
