import ChatDomain
import ChatPresentation
import Synchronization

@testable import ChatMCP

/// The problems a tool source reported, in order, as facts and as the lines people read.
final class ReportedProblems: ToolProblemReporter {
    private let list = Mutex<[ToolServerProblem]>([])

    func report(_ problem: ToolServerProblem) {
        list.withLock { $0.append(problem) }
    }

    var all: [ToolServerProblem] { list.withLock { $0 } }
    /// Each problem as its line on stderr (without `chat: warning: `).
    var lines: [String] { all.map(ErrorWording.line(for:)) }
}

extension MCPToolSource {
    /// Calls the tool offered as `call.name`, with the definition `tools()` gives it, as the tool
    /// loop does; a name not offered is called with a definition of no origin.
    func call(_ call: ToolCall) async -> ToolResult {
        let tool =
            await tools().first { $0.name == call.name }
            ?? ToolDefinition(name: call.name, description: "", parameters: .object([:]))
        return await self.call(call, tool: tool)
    }
}
