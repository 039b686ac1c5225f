import ChatDomain
import Synchronization

/// A tool source with one tool, `time__now`, that answers "12:00" (or fails when asked to) and
/// records its calls.
public final class StubToolSource: ToolSource {
    /// The one tool it offers.
    public static let clock = ToolDefinition(
        name: "time__now", description: "The time", parameters: .object(["type": .string("object")]),
        origin: ToolOrigin(server: "time", tool: "now"))

    private let calls = Mutex<[ToolCall]>([])
    public let failing: Bool

    public init(failing: Bool = false) { self.failing = failing }

    /// Every call it ran, in order.
    public var received: [ToolCall] { calls.withLock { $0 } }

    public func tools() async -> [ToolDefinition] { [Self.clock] }

    public func call(_ call: ToolCall, tool: ToolDefinition) async -> ToolResult {
        calls.withLock { $0.append(call) }
        if failing { return ToolResult(callID: call.id, content: [.text("timed out after 60 s")], isError: true) }
        return ToolResult(callID: call.id, content: [.text("12:00")])
    }
}
