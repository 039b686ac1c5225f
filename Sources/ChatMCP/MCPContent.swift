import ChatDomain
import ChatSystem

/// What a server sent, as chat hands it on: a tool's result (text as it is, images as images,
/// other data named by type and size, a resource link as its address and description, never
/// fetched; `structuredContent` checked against the tool's `outputSchema`), and the content of a
/// prompt or a resource the same way.
enum MCPContent {
    /// The image types a model may be sent.
    static let imageTypes: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    /// A tool's `result` for call `callID`: its content, each image up to `imageLimit` bytes
    /// (`max_tool_result_bytes`), a larger one named instead; `structuredContent` that does not
    /// match `outputSchema` an error result whose failure says where; with no text, the
    /// structured content as JSON text. `source` names the images (`server.tool`).
    static func toolResult(
        _ result: JSONValue, callID: String, outputSchema: JSONValue?, source: String, imageLimit: Int
    ) -> ToolResult {
        var parts = (result["content"]?.array ?? []).map { part($0, source: source, imageLimit: imageLimit) }
        let isError = result["isError"]?.bool ?? false
        if let structured = result["structuredContent"], !isError {
            if let schema = outputSchema, schema.isObject,
                let mismatch = SchemaValidator.firstMismatch(in: structured, against: schema)
            {
                var failed = ToolResult(callID: callID, content: [], isError: true)
                failed.failure = .structuredMismatch(mismatch)
                return failed
            }
            let hasText = parts.contains { if case .text = $0 { return true } else { return false } }
            if !hasText, let text = structured.jsonText { parts.insert(.text(text), at: 0) }
        }
        return ToolResult(callID: callID, content: parts, isError: isError)
    }

    /// One content block as a message part: text as it is; an image (of a type a model takes,
    /// and within `imageLimit`) as an image; anything else in words (never dropped silently).
    static func part(_ item: JSONValue, source: String, imageLimit: Int) -> MessagePart {
        let type = item["type"]?.string ?? "unknown"
        switch type {
        case "text":
            return .text(item["text"]?.string ?? "")
        case "image", "audio":
            let mimeType = item["mimeType"]?.string ?? "\(type)/unknown"
            return data(item["data"]?.string, mimeType: mimeType, source: source, imageLimit: imageLimit)
        case "resource_link":
            return .text(link(item))
        case "resource":
            let resource = item["resource"] ?? .object([:])
            if let text = resource["text"]?.string { return .text(text) }
            let mimeType = resource["mimeType"]?.string ?? "application/octet-stream"
            let uri = resource["uri"]?.string.map { " " + ServerText.line($0, limit: 200) } ?? ""
            if imageTypes.contains(mimeType) {
                return data(resource["blob"]?.string, mimeType: mimeType, source: source, imageLimit: imageLimit)
            }
            return .text(
                "[the resource\(uri) (\(ServerText.line(mimeType, limit: 60)), \(size(resource["blob"]?.string)))]")
        default:
            return .text("[content of type \(ServerText.line(type, limit: 40)), not sent to the model]")
        }
    }

    /// Base64 `data` of `mimeType`: an image part when it is an image a model takes and no larger
    /// than `imageLimit`; else a note naming its type and size.
    private static func data(_ data: String?, mimeType: String, source: String, imageLimit: Int) -> MessagePart {
        let shownType = ServerText.line(mimeType, limit: 60)
        guard let data, let bytes = Base64.decode(data) else {
            return .text("[\(shownType), not readable: its data is not Base64]")
        }
        guard imageTypes.contains(mimeType) else {
            return .text("[\(shownType), \(bytes.count) bytes: not sent to the model]")
        }
        guard bytes.count <= imageLimit else {
            return .text("[\(shownType), \(bytes.count) bytes: over max_tool_result_bytes, not sent to the model]")
        }
        return .image(ImageFile.attachment(path: source, mimeType: mimeType, bytes: bytes))
    }

    /// A resource link in words: its address, name, type and description (not fetched).
    static func link(_ item: JSONValue) -> String {
        var text =
            "[a link to a resource, not fetched: " + ServerText.line(item["uri"]?.string ?? "no address", limit: 300)
        let details = [item["name"]?.string, item["mimeType"]?.string].compactMap { $0 }.map {
            ServerText.line($0, limit: 100)
        }
        if !details.isEmpty { text += " (" + details.joined(separator: ", ") + ")" }
        if let description = item["description"]?.string, !description.isEmpty {
            text += ": " + ServerText.line(description, limit: 500)
        }
        return text + "]"
    }

    /// `about N bytes` of Base64 `data`.
    private static func size(_ data: String?) -> String {
        let count = data.flatMap(Base64.decode)?.count ?? 0
        return "\(count) bytes"
    }
}
