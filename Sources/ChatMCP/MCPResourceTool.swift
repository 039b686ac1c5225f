import ChatDomain
import ChatJSON

/// The two tools a server that offers resources gives the model besides its own: one lists its
/// resources (and their templates), one reads a resource by URI. Offered as the server's other
/// tools are (`server__list_resources`, `server__read_resource`), under the same consent; their
/// origin's tool is the MCP method (`resources/list`, `resources/read`), a name no tool of the
/// server's takes, so a call is routed by its origin, never by its offered name.
enum MCPResourceTool: Equatable {
    case list
    case read

    /// The resource tool `origin` names, if it names one.
    init?(origin: ToolOrigin) {
        switch origin.tool {
        case Self.list.method: self = .list
        case Self.read.method: self = .read
        default: return nil
        }
    }

    /// The MCP method it runs, which is also its origin's tool.
    var method: String {
        switch self {
        case .list: "resources/list"
        case .read: "resources/read"
        }
    }

    /// Its name before the server's prefix.
    var name: String {
        switch self {
        case .list: "list_resources"
        case .read: "read_resource"
        }
    }

    /// The two tools of `server`, as its own tools come from its list (named by `name`; the
    /// origin set).
    static func definitions(server: String) -> [ToolDefinition] {
        [
            ToolDefinition(
                name: Self.list.name,
                description:
                    "Lists the resources MCP server \(server) offers (files, records, documents): each one's URI, "
                    + "name, type and description, and the URI templates it can fill in. Read one with "
                    + "read_resource.",
                parameters: .object(["type": .string("object"), "properties": .object([:])]),
                origin: ToolOrigin(server: server, tool: Self.list.method)),
            ToolDefinition(
                name: Self.read.name,
                description:
                    "Reads the resource at a URI of MCP server \(server) (one list_resources gave, or a template "
                    + "filled in): its text, or its image.",
                parameters: .object([
                    "type": .string("object"),
                    "properties": .object([
                        "uri": .object([
                            "type": .string("string"), "description": .string("The resource's URI."),
                        ])
                    ]),
                    "required": .array([.string("uri")]),
                ]),
                origin: ToolOrigin(server: server, tool: Self.read.method)),
        ]
    }

    /// Runs it against `client` with `call`'s arguments: the list as text, a line a resource; the
    /// resource read as text and images (other bytes by type and size).
    func run(_ call: ToolCall, client: MCPClient, imageLimit: Int) async -> ToolResult {
        switch self {
        case .list:
            let resources: [ToolServerResource]
            switch await client.resources() {
            case .success(let listed): resources = listed
            case .failure(let failure): return ToolResult(callID: call.id, failure: failure)
            }
            let templates = (try? await client.resourceTemplates().get()) ?? []
            return ToolResult(callID: call.id, content: [.text(Self.listing(resources, templates))])
        case .read:
            guard let uri = call.arguments["uri"]?.string, !uri.isEmpty else {
                return ToolResult(
                    callID: call.id, content: [.text("give the resource's URI: {\"uri\": \"…\"}")], isError: true)
            }
            switch await client.readResource(uri, imageLimit: imageLimit) {
            case .success(let contents):
                let parts = contents.map(Self.part)
                return ToolResult(callID: call.id, content: parts.isEmpty ? [.text("(the resource is empty)")] : parts)
            case .failure(let failure):
                return ToolResult(callID: call.id, failure: failure)
            }
        }
    }

    /// The resources, a line each (`uri — name (type): description`), then the templates.
    static func listing(_ resources: [ToolServerResource], _ templates: [ToolServerResourceTemplate]) -> String {
        func line(_ uri: String, _ name: String, _ mimeType: String?, _ description: String?) -> String {
            var text = uri + " — " + name
            if let mimeType { text += " (\(mimeType))" }
            if let description, !description.isEmpty { text += ": " + description }
            return text
        }
        var lines = resources.map { line($0.uri, $0.title ?? $0.name, $0.mimeType, $0.description) }
        if lines.isEmpty { lines.append("(no resources)") }
        if !templates.isEmpty {
            lines.append("URI templates (fill in the {…} parts, then read):")
            lines += templates.map { line($0.uriTemplate, $0.title ?? $0.name, $0.mimeType, $0.description) }
        }
        return lines.joined(separator: "\n")
    }

    /// One piece of a resource as a part of the tool's result.
    static func part(_ content: ToolServerResourceContent) -> MessagePart {
        switch content.body {
        case .text(let text): .text(text)
        case .image(let image): .image(image)
        case .binary(let byteCount):
            .text("[\(content.uri): \(content.mimeType ?? "application/octet-stream"), \(byteCount) bytes]")
        }
    }
}
