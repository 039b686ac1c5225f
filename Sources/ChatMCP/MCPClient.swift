import ChatDomain
import ChatJSON

/// An MCP session with one server over a connection of either kind (`MCPConnection`):
/// `initialize` (the protocol version agreed), `notifications/initialized`, `tools/list` page by
/// page, `tools/call`.
struct MCPClient: Sendable {
    /// The protocol versions chat speaks, newest first; it offers the first.
    static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    let connection: any MCPConnection
    let entry: MCPServerEntry
    /// The version the server chose.
    private(set) var protocolVersion = ""

    /// Opens the session: the server answers `initialize` with the version it speaks, which
    /// must be one of chat's.
    static func start(_ connection: any MCPConnection, entry: MCPServerEntry, clientVersion: String) async
        -> Result<MCPClient, ToolServerFailure>
    {
        let params = JSONValue.object([
            "protocolVersion": .string(protocolVersions[0]), "capabilities": .object([:]),
            "clientInfo": .object(["name": .string("chat"), "version": .string(clientVersion)]),
        ])
        let result = await connection.request("initialize", params: params, timeout: entry.startTimeout)
        switch result {
        case .failure(let failure):
            return .failure(failure)
        case .success(let answer):
            guard let version = answer["protocolVersion"]?.string else {
                return .failure(.noProtocolVersion)
            }
            guard protocolVersions.contains(version) else {
                return .failure(.unsupportedProtocol(version: ServerText.line(version, limit: 40)))
            }
            await connection.notify("notifications/initialized")
            var client = MCPClient(connection: connection, entry: entry)
            client.protocolVersion = version
            return .success(client)
        }
    }

    /// Every tool the server offers, following `nextCursor` (at most 100 pages).
    func tools() async -> Result<[ToolDefinition], ToolServerFailure> {
        var tools: [ToolDefinition] = []
        var cursor: String?
        for _ in 0..<100 {
            let params: JSONValue = cursor.map { .object(["cursor": .string($0)]) } ?? .object([:])
            switch await connection.request("tools/list", params: params, timeout: entry.startTimeout) {
            case .failure(let failure):
                return .failure(failure)
            case .success(let page):
                for tool in page["tools"]?.array ?? [] {
                    guard let name = tool["name"]?.string else { continue }
                    tools.append(
                        ToolDefinition(
                            name: name, description: tool["description"]?.string ?? "",
                            parameters: tool["inputSchema"] ?? .object(["type": .string("object")]),
                            origin: ToolOrigin(server: entry.name, tool: name)))
                }
                guard let next = page["nextCursor"]?.string, !next.isEmpty else { return .success(tools) }
                cursor = next
            }
        }
        return .success(tools)
    }

    /// Calls tool `name` (the server's own name) with `arguments`: what it gave (a tool that
    /// failed is an error result), or why there is no answer (a timeout, a cancellation, the
    /// server gone).
    func call(_ name: String, arguments: JSONValue, callID: String) async -> Result<ToolResult, ToolServerFailure> {
        let params = JSONValue.object(["name": .string(name), "arguments": arguments])
        switch await connection.request("tools/call", params: params, timeout: entry.callTimeout) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let result):
            var parts = (result["content"]?.array ?? []).map(Self.part)
            if parts.isEmpty, let structured = result["structuredContent"], let text = structured.jsonText {
                parts = [.text(text)]
            }
            return .success(ToolResult(callID: callID, content: parts, isError: result["isError"]?.bool ?? false))
        }
    }

    /// One content item as a message part: text as it is, anything else summarised (never
    /// dropped silently).
    private static func part(_ item: JSONValue) -> MessagePart {
        let type = item["type"]?.string ?? "unknown"
        switch type {
        case "text":
            return .text(item["text"]?.string ?? "")
        case "image", "audio":
            let size = item["data"]?.string.map { " of about \($0.utf8.count * 3 / 4) bytes" } ?? ""
            return .text("[\(type) (\(item["mimeType"]?.string ?? "unknown type"))\(size), not shown to the model]")
        case "resource_link":
            return .text("[a link to \(item["uri"]?.string ?? "a resource"): \(item["name"]?.string ?? "")]")
        case "resource":
            if let text = item["resource"]?["text"]?.string { return .text(text) }
            return .text("[a resource: \(item["resource"]?["uri"]?.string ?? "no uri")]")
        default:
            return .text("[content of type \(type), not shown to the model]")
        }
    }
}
