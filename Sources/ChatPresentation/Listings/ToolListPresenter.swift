import ChatDomain
import ChatRendering

/// `--tools-list`: each server with the MCP version spoken with it, its tools with their
/// descriptions, and its prompts with their arguments; or, for a program (`--json`), one JSON line
/// a tool (with its server's `protocol_version`) and one a prompt. What a server wrote is shown
/// made safe.
public struct ToolListPresenter {
    /// One tool of one server.
    public struct Entry: Sendable {
        public var server: String
        /// The tool's own name, as its server calls it.
        public var tool: String
        /// The name offered to the model (`server__tool`).
        public var offeredName: String
        public var description: String
        /// The MCP version spoken with its server (`2026-07-28`), when known.
        public var protocolVersion: String?

        public init(
            server: String, tool: String, offeredName: String, description: String, protocolVersion: String? = nil
        ) {
            self.server = server
            self.tool = tool
            self.offeredName = offeredName
            self.description = description
            self.protocolVersion = protocolVersion
        }
    }

    private let output: any OutputSink
    private let style: TerminalStyle

    public init(output: any OutputSink, style: TerminalStyle) {
        self.output = output
        self.style = style
    }

    /// The servers in order, each with the MCP version spoken with it (`versions`, by server),
    /// its tools, or `(no tools)` for one that offered none, and its `prompts`.
    public func show(
        servers: [String], tools: [Entry], versions: [String: String] = [:], prompts: [ToolServerPrompt] = []
    ) {
        output.write(Self.text(servers: servers, tools: tools, style: style, versions: versions, prompts: prompts))
    }

    /// The listing `show` writes (and `/tools`, with each server's `state`, e.g. `on`): each
    /// server in bold with its version (`MCP 2026-07-28`), its tools' names aligned and their
    /// descriptions dimmed, then its prompts, their arguments (`?` after an optional one) and
    /// descriptions, made safe.
    public static func text(
        servers: [String], tools: [Entry], style: TerminalStyle, state: ((String) -> String)? = nil,
        versions: [String: String] = [:], prompts: [ToolServerPrompt] = []
    ) -> String {
        var text = ""
        for server in servers {
            text += style.bold(ServerText.line(server, limit: 60))
            let notes = [state?(server), versions[server].map { "MCP " + ServerText.line($0, limit: 20) }]
                .compactMap { $0 }
            if !notes.isEmpty { text += style.dim(" (\(notes.joined(separator: ", ")))") }
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
            let ownPrompts = prompts.filter { $0.server == server }
            if !ownPrompts.isEmpty { text += "  " + style.dim("prompts:") + "\n" }
            for prompt in ownPrompts {
                let arguments = prompt.arguments.map {
                    ServerText.line($0.name, limit: 40) + ($0.isRequired ? "" : "?")
                }
                let name = ServerText.line(prompt.name, limit: 60) + "(" + arguments.joined(separator: ", ") + ")"
                let description = prompt.description.map { "  " + style.dim(ServerText.line($0, limit: 200)) } ?? ""
                text += "    " + name + description + "\n"
            }
        }
        return text
    }

    /// Each tool as a JSON line: its server, its name there, the name offered to the model, its
    /// description and its server's `protocol_version`; then each prompt: its server, its name
    /// (`prompt`), its description and its arguments (`name`, `description`, `required`).
    public static func json(_ tools: [Entry], prompts: [ToolServerPrompt] = [], lines: JSONLines) {
        for entry in tools {
            var members: [String: JSONValue] = [
                "server": .string(entry.server), "tool": .string(entry.tool), "name": .string(entry.offeredName),
                "description": .string(entry.description),
            ]
            if let version = entry.protocolVersion { members["protocol_version"] = .string(version) }
            guard lines.write(members) else { return }
        }
        for prompt in prompts {
            let arguments = prompt.arguments.map { argument -> JSONValue in
                var members: [String: JSONValue] = [
                    "name": .string(argument.name), "required": .bool(argument.isRequired),
                ]
                if let description = argument.description { members["description"] = .string(description) }
                return .object(members)
            }
            let members: [String: JSONValue] = [
                "server": .string(prompt.server), "prompt": .string(prompt.name),
                "description": prompt.description.map(JSONValue.string) ?? .null, "arguments": .array(arguments),
            ]
            guard lines.write(members) else { return }
        }
    }
}
