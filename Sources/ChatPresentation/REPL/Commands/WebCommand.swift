import ChatDomain

/// `/web [on|off]`: whether the model may search the web on the server (`--web`), from the next
/// answer on; with no argument, says which. Where the provider has none, says so.
struct WebCommand: SlashCommand {
    let names = ["web"]
    let usage = "/web [on|off]"
    let summary = "let the model search the web on the server, or stop it"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        let word = argument?.trimmingCharacters().lowercased()
        guard let web = context.parts.webSearch else {
            if word == "off" || word == nil || word == "" {
                context.note("web search is off")
            } else {
                context.failure(context.parts.noWebSearch)
            }
            return .proceed
        }
        switch word {
        case nil, "":
            context.note("web search is \(web.isOn ? "on" : "off") (/web on or off)")
        case "on":
            web.set(true)
            context.note("the model may search the web from the next answer on")
        case "off":
            web.set(false)
            context.note("web search is off from the next answer on")
        case let other?:
            context.failure("/web takes on or off, not \"\(ServerText.line(other, limit: 40))\"")
        }
        return .proceed
    }

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        ["on", "off"].filter { $0.hasPrefix(argument) }
    }
}
