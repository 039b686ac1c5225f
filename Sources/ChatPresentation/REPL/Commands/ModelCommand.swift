/// `/model [NAME]`: show the model, or switch to NAME for the next requests.
struct ModelCommand: SlashCommand {
    let names = ["model"]
    let usage = "/model [NAME]"
    let summary = "show the model, or switch to NAME"

    /// The server's models (fetched once a session, kept a day).
    func completions(for argument: String, in context: CompletionContext) -> [String] {
        let word = CompletionContext.lastWord(of: argument)
        return context.source.modelNames().filter { $0.hasPrefix(word) }
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        if let name = argument {
            context.conversation.settings.model = name
            context.note("model: \(name)")
        } else {
            context.say(context.conversation.settings.model + "\n")
        }
        return .proceed
    }
}
