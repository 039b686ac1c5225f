import ChatDomain

/// `/resource SERVER URI`: reads a resource of an MCP server that is on and attaches it to the
/// next message, as `/file` does: text as text, images as images.
struct ResourceCommand: SlashCommand {
    let names = ["resource"]
    let usage = "/resource SERVER URI"
    let summary = "attach a resource of an MCP server to the next message (/resources lists them)"

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        context.servers(completingFirstWordOf: argument)
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let tools = context.toolServers, let catalogue = context.toolCatalogue else { return .proceed }
        let words = (argument ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.count == 2 else {
            context.failure("give a server and a URI: /resource SERVER URI (/resources lists them)")
            return .proceed
        }
        let (server, uri) = (words[0], words[1])
        guard context.isOn(server, in: tools) else { return .proceed }
        switch await catalogue.readResource(server: server, uri: uri) {
        case .failure(let failure):
            context.failure(
                "the resource \(ServerText.line(uri, limit: 200)) of \(server): " + ErrorWording.text(for: failure)
                    + "; nothing attached")
        case .success(let contents):
            var added = Attachments()
            for content in contents {
                switch content.body {
                case .text(let text):
                    added.texts.append(TextAttachment(path: ServerText.line(content.uri, limit: 200), text: text))
                case .image(let image):
                    added.images.append(image)
                case .binary(let byteCount):
                    context.failure(
                        "\(ServerText.line(content.uri, limit: 200)) is \(ServerText.line(content.mimeType ?? "binary", limit: 60)) "
                            + "(\(ByteCount.text(byteCount))): only text and images can be attached; left out")
                }
            }
            guard !added.isEmpty else {
                if contents.isEmpty {
                    context.failure("the resource \(ServerText.line(uri, limit: 200)) is empty; nothing attached")
                }
                return .proceed
            }
            context.attachments = context.attachments.adding(added)
            context.note(
                "attached \(ServerText.line(uri, limit: 200)) to the next message (\(Counted.text(context.attachments.count, "file")) in all; /files lists them)"
            )
        }
        return .proceed
    }
}
