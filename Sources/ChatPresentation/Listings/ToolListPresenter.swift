import ChatDomain
import ChatRendering

/// `--tools-list`: each server's tools with their descriptions, the servers named; or, for a
/// program (`--json`), one JSON line a tool. What a server wrote is shown made safe.
public struct ToolListPresenter {
    /// One tool of one server.
    public struct Entry: Sendable {
        public var server: String
        /// The tool's own name, as its server calls it.
        public var tool: String
        /// The name offered to the model (`server__tool`).
        public var offeredName: String
        public var description: String

        public init(server: String, tool: String, offeredName: String, description: String) {
            self.server = server
            self.tool = tool
            self.offeredName = offeredName
            self.description = description
        }
    }

    private let output: any OutputSink
    private let style: TerminalStyle

    public init(output: any OutputSink, style: TerminalStyle) {
        self.output = output
        self.style = style
    }

    /// The servers in order, each with its tools, or `(no tools)` for one that offered none.
    public func show(servers: [String], tools: [Entry]) {
        output.write(Self.text(servers: servers, tools: tools, style: style))
    }

    /// The listing `show` writes (and `/tools`, with each server's `state`, e.g. `on`): each
    /// server in bold, its tools' names aligned and their descriptions dimmed, made safe.
    public static func text(
        servers: [String], tools: [Entry], style: TerminalStyle, state: ((String) -> String)? = nil
    ) -> String {
        var text = ""
        for server in servers {
            text += style.bold(ServerText.line(server, limit: 60))
            if let state { text += style.dim(" (\(state(server)))") }
            text += "\n"
            let own = tools.filter { $0.server == server }
            if own.isEmpty { text += style.dim("  (no tools)") + "\n" }
            // Terminal cells, not characters: a wide character takes two.
            let width = min(32, own.map { CellWidth.of(ServerText.line($0.tool, limit: 60)) }.max() ?? 0)
            for entry in own {
                let name = ServerText.line(entry.tool, limit: 60)
                let padding = String(repeating: " ", count: max(1, width - CellWidth.of(name) + 2))
                text += "  " + name + padding + style.dim(ServerText.line(entry.description, limit: 200)) + "\n"
            }
        }
        return text
    }

    /// Each tool as a JSON line: its server, its name there, the name offered to the model and
    /// its description.
    public static func json(_ tools: [Entry], lines: JSONLines) {
        for entry in tools {
            let members: [String: JSONValue] = [
                "server": .string(entry.server), "tool": .string(entry.tool), "name": .string(entry.offeredName),
                "description": .string(entry.description),
            ]
            guard lines.write(members) else { return }
        }
    }
}
