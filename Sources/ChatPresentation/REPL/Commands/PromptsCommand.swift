import ChatDomain

/// `/prompts`: the prompts of the MCP servers that are on, with their arguments (`?` after an
/// optional one) and descriptions, made safe.
struct PromptsCommand: SlashCommand {
    let names = ["prompts"]
    let usage = "/prompts"
    let summary = "list the prompts of the MCP servers that are on (/prompt SERVER.NAME uses one)"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let catalogue = context.toolCatalogue else { return .proceed }
        if let argument {
            context.failure("/prompts takes nothing, not \(argument); /prompt SERVER.NAME uses one")
            return .proceed
        }
        let prompts = await catalogue.prompts()
        guard !prompts.isEmpty else {
            context.note("no prompts: none of the MCP servers that are on offers any (/tools lists the servers)")
            return .proceed
        }
        context.say(Self.text(prompts, style: context.parts.outputStyle))
        return .proceed
    }

    /// Each prompt as `SERVER.NAME ARG=… [ARG=…]`, its title and description dimmed, then each
    /// argument that has a description.
    static func text(_ prompts: [ToolServerPrompt], style: TerminalStyle) -> String {
        var text = ""
        for prompt in prompts {
            let arguments = prompt.arguments.map { argument in
                let name = ServerText.line(argument.name, limit: 40) + "=…"
                return argument.isRequired ? name : "[" + name + "]"
            }
            text +=
                style.bold(ServerText.line(prompt.server, limit: 40) + "." + ServerText.line(prompt.name, limit: 60))
                + (arguments.isEmpty ? "" : " " + arguments.joined(separator: " "))
            let about = [prompt.title, prompt.description].compactMap { $0 }.filter { !$0.isEmpty }
            if !about.isEmpty { text += "  " + style.dim(ServerText.line(about.joined(separator: ": "), limit: 200)) }
            text += "\n"
            for argument in prompt.arguments {
                guard let description = argument.description, !description.isEmpty else { continue }
                text +=
                    "    " + ServerText.line(argument.name, limit: 40) + "  "
                    + style.dim(ServerText.line(description, limit: 200)) + "\n"
            }
        }
        return text
    }
}
