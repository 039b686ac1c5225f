import ChatDomain
import ChatJSON
import Synchronization

/// A `ToolSource` that shows each call of the one it wraps: one line on the notes stream (dimmed
/// on a terminal, where it stands while the call runs and is replaced when it ends) naming the
/// server, the tool and its arguments in short, and, on a terminal, the server's progress as it
/// comes (`3/10 step 3`), then how long it took, ok or error, and the result's size; with
/// `--json`, a `tool_call` and a `tool_result` event on the lines too. All
/// a tool or server chose is made safe. A call its server gave no result for is told to the
/// model in `ErrorWording`'s words.
public struct ToolCallReporter: ToolSource {
    private let source: any ToolSource
    private let notes: any OutputSink
    private let style: TerminalStyle
    private let live: Bool
    private let lines: JSONLines?
    private let toolSwitch: ToolSwitch?

    /// Calls of `source`, shown on `notes` (`live`: it is a terminal); `lines` gets the events
    /// (`--json`). Only the tools of the servers `toolSwitch` has on are offered.
    public init(
        _ source: any ToolSource, notes: any OutputSink, style: TerminalStyle, live: Bool, lines: JSONLines?,
        toolSwitch: ToolSwitch? = nil
    ) {
        self.toolSwitch = toolSwitch
        self.source = source
        self.notes = notes
        self.style = style
        self.live = live
        self.lines = lines
    }

    public func tools() async -> [ToolDefinition] {
        let tools = await source.tools()
        guard let toolSwitch else { return tools }
        return tools.filter { tool in tool.origin.map { toolSwitch.isOn($0.server) } ?? true }
    }

    public func call(_ call: ToolCall, tool definition: ToolDefinition) async -> ToolResult {
        let (server, tool) = (definition.origin?.server ?? "", definition.origin?.tool ?? call.name)
        let line =
            "⚙ " + Self.shown(definition) + " " + ServerText.line(call.arguments.jsonText ?? "", limit: 60)
        if live { notes.write(style.dim(line + " …")) }
        lines?.write([
            "type": .string("tool_call"), "id": .string(call.id), "server": .string(server), "tool": .string(tool),
            "arguments": call.arguments,
        ])
        let started = ContinuousClock.now
        // The live line while the call runs, with the server's progress; never after its end.
        let running = Mutex(true)
        let (notes, style, live) = (notes, style, live)
        var result = await source.call(call, tool: definition) { progress in
            guard live else { return }
            running.withLock { running in
                guard running else { return }
                notes.write("\r\u{1B}[K" + style.dim(line + " … " + Self.progressText(progress)))
            }
        }
        if let failure = result.failure, result.content.isEmpty {
            result.content = [.text(ErrorWording.text(for: failure))]
        }
        let elapsed = ContinuousClock.now - started
        let bytes = result.text.utf8.count
        let outcome: String
        if Task.isCancelled {
            outcome = "cancelled"
        } else if result.isError {
            outcome = "error: " + ServerText.line(result.text, limit: 80)
        } else {
            outcome = "ok"
        }
        let end = [line, Self.duration(elapsed), outcome, Self.size(bytes)].joined(separator: " · ")
        running.withLock { running in
            running = false
            notes.write(live ? "\r\u{1B}[K" + style.dim(end) + "\n" : end + "\n")
        }
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        lines?.write([
            "type": .string("tool_result"), "id": .string(call.id), "is_error": .bool(result.isError),
            "bytes": .number(Double(bytes)), "duration_ms": .number(Double(milliseconds)),
        ])
        return result
    }

    /// `server.tool`, made safe; the offered name for a tool of no server.
    public static func shown(_ tool: ToolDefinition) -> String {
        guard let origin = tool.origin else { return ServerText.line(tool.name, limit: 80) }
        return ServerText.line(origin.server, limit: 40) + "." + ServerText.line(origin.tool, limit: 60)
    }

    /// A server's progress in short: `3/10 step 3`, `3 step 3` without a total, the server's
    /// words made safe.
    static func progressText(_ progress: ToolProgress) -> String {
        var text = number(progress.progress)
        if let total = progress.total { text += "/" + number(total) }
        if let message = progress.message, !message.isEmpty { text += " " + ServerText.line(message, limit: 60) }
        return text
    }

    /// `3`, not `3.0`; `2.5` as it is.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `0.3 s`, `12 s`.
    static func duration(_ elapsed: Duration) -> String {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        if seconds < 10 { return String(Double(Int(seconds * 10)) / 10) + " s" }
        return String(Int(seconds)) + " s"
    }

    /// `120 B`, `4.2 KB`, `1.3 MB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return "\(bytes) B" }
        if bytes < 1_000_000 { return String(Double(bytes / 100) / 10) + " KB" }
        return String(Double(bytes / 100_000) / 10) + " MB"
    }
}
