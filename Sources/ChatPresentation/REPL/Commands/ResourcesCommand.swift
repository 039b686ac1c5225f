import ChatDomain

/// `/resources [SERVER]`: the resources (and URI templates) of the MCP servers that are on, or of
/// one: each one's URI, name, type, size and description, made safe.
struct ResourcesCommand: SlashCommand {
    let names = ["resources"]
    let usage = "/resources [SERVER]"
    let summary = "list the resources of the MCP servers that are on (/resource SERVER URI attaches one)"

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        context.servers(completingFirstWordOf: argument)
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let tools = context.toolServers, let catalogue = context.toolCatalogue else { return .proceed }
        let servers: [String]
        if let argument {
            guard context.isOn(argument, in: tools) else { return .proceed }
            servers = [argument]
        } else {
            servers = tools.switch.enabledServers
            guard !servers.isEmpty else {
                context.note("no MCP server is on: /tools SERVER turns one on (/tools lists them)")
                return .proceed
            }
        }
        let style = context.parts.outputStyle
        var text = ""
        for server in servers {
            let offers = await catalogue.statuses().first { $0.server == server }?.offersResources ?? false
            guard offers else {
                if argument != nil { context.note("MCP server \(server) offers no resources") }
                continue
            }
            switch await catalogue.resources(server: server) {
            case .failure(let failure):
                context.failure("the resources of \(server): " + ErrorWording.text(for: failure))
            case .success(let resources):
                let templates = (try? await catalogue.resourceTemplates(server: server).get()) ?? []
                text += Self.text(server: server, resources, templates, style: style)
            }
        }
        if text.isEmpty, argument == nil {
            context.note("no resources: none of the MCP servers that are on offers any")
        }
        context.say(text)
        return .proceed
    }

    /// `server`'s resources, a line each (URI, then name, type and size, then description dimmed),
    /// and its templates.
    static func text(
        server: String, _ resources: [ToolServerResource], _ templates: [ToolServerResourceTemplate],
        style: TerminalStyle
    ) -> String {
        func line(_ uri: String, _ name: String, _ mimeType: String?, _ size: Int?, _ description: String?) -> String {
            var about = [ServerText.line(name, limit: 60)]
            if let mimeType { about.append(ServerText.line(mimeType, limit: 40)) }
            if let size { about.append(ByteCount.text(size)) }
            var text = "  " + ServerText.line(uri, limit: 200) + "  " + about.joined(separator: ", ")
            if let description, !description.isEmpty {
                text += "  " + style.dim(ServerText.line(description, limit: 200))
            }
            return text + "\n"
        }
        var text = style.bold(ServerText.line(server, limit: 60)) + "\n"
        if resources.isEmpty { text += style.dim("  (no resources)") + "\n" }
        for resource in resources {
            text += line(
                resource.uri, resource.title ?? resource.name, resource.mimeType, resource.size, resource.description)
        }
        if !templates.isEmpty { text += "  " + style.dim("templates (fill in the {…} parts for /resource):") + "\n" }
        for template in templates {
            text += line(
                template.uriTemplate, template.title ?? template.name, template.mimeType, nil, template.description)
        }
        return text
    }
}
