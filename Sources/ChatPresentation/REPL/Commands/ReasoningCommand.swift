import ChatDomain

/// `/reasoning [on|off]`: whether answers show the model's reasoning (dimmed, on stderr), from
/// the next answer on; with no argument, says which.
struct ReasoningCommand: SlashCommand {
    let names = ["reasoning"]
    let usage = "/reasoning [on|off]"
    let summary = "show the model's reasoning, or hide it"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        let reasoning = context.parts.reasoning
        switch argument?.trimmingCharacters().lowercased() {
        case nil, "":
            context.note("reasoning is \(reasoning.isOn ? "shown" : "hidden") (/reasoning on or off)")
        case "on":
            reasoning.set(true)
            context.note("reasoning will be shown")
        case "off":
            reasoning.set(false)
            context.note("reasoning will be hidden")
        case let other?:
            context.failure("/reasoning takes on or off, not \"\(ServerText.line(other, limit: 40))\"")
        }
        return .proceed
    }

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        ["on", "off"].filter { $0.hasPrefix(argument) }
    }
}
