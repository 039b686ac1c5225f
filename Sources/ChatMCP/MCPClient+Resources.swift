import ChatDomain
import ChatSystem

/// A server's resources: listed (and their templates), and read.
extension MCPClient {
    /// The resources the server offers; none when it declares no resources.
    func resources() async -> Result<[ToolServerResource], ToolServerFailure> {
        guard await offers("resources") else { return .success([]) }
        return await list("resources/list", key: "resources").map { items in
            items.compactMap { item in
                guard let uri = item["uri"]?.string else { return nil }
                return ToolServerResource(
                    server: entry.name, uri: uri, name: item["name"]?.string ?? uri, title: item["title"]?.string,
                    description: item["description"]?.string, mimeType: item["mimeType"]?.string,
                    size: item["size"]?.wholeNumber)
            }
        }
    }

    /// The resource templates the server offers; none when it declares no resources.
    func resourceTemplates() async -> Result<[ToolServerResourceTemplate], ToolServerFailure> {
        guard await offers("resources") else { return .success([]) }
        return await list("resources/templates/list", key: "resourceTemplates").map { items in
            items.compactMap { item in
                guard let template = item["uriTemplate"]?.string else { return nil }
                return ToolServerResourceTemplate(
                    server: entry.name, uriTemplate: template, name: item["name"]?.string ?? template,
                    title: item["title"]?.string, description: item["description"]?.string,
                    mimeType: item["mimeType"]?.string)
            }
        }
    }

    /// The resource at `uri`: its text, its images (each at most `imageLimit` bytes), other
    /// bytes by size; the server's questions answered on the way.
    func readResource(_ uri: String, imageLimit: Int = 100_000) async
        -> Result<[ToolServerResourceContent], ToolServerFailure>
    {
        guard await offers("resources") else { return .failure(.notOffered("resources")) }
        switch await sendAnswering("resources/read", params: ["uri": .string(uri)], name: uri, safe: true) {
        case .failure(let error):
            return .failure(error.failure)
        case .success(let result):
            if let failure = Self.complete(result) { return .failure(failure) }
            return .success(
                (result["contents"]?.array ?? []).map { item in
                    let mimeType = item["mimeType"]?.string
                    let itemURI = item["uri"]?.string ?? uri
                    if let text = item["text"]?.string {
                        return ToolServerResourceContent(uri: itemURI, mimeType: mimeType, body: .text(text))
                    }
                    let bytes = item["blob"]?.string.flatMap(Base64.decode) ?? []
                    if let mimeType, MCPContent.imageTypes.contains(mimeType), bytes.count <= imageLimit {
                        let image = ImageFile.attachment(path: itemURI, mimeType: mimeType, bytes: bytes)
                        return ToolServerResourceContent(uri: itemURI, mimeType: mimeType, body: .image(image))
                    }
                    return ToolServerResourceContent(
                        uri: itemURI, mimeType: mimeType, body: .binary(byteCount: bytes.count))
                })
        }
    }
}
