/// `/save FILE`: the conversation as JSON, written atomically.
struct SaveCommand: SlashCommand {
    let names = ["save"]
    let usage = "/save FILE"
    let summary = "save the conversation as JSON"

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        context.source.paths(completing: CompletionContext.lastWord(of: argument))
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let path = argument else {
            context.failure("give a file name: /save FILE, /load FILE")
            return .proceed
        }
        do {
            try context.parts.archive.save(context.conversation, to: path)
            context.note("saved \(context.conversation.messages.count) messages to \(path)")
        } catch {
            context.failure(ErrorWording.line(for: error))
        }
        return .proceed
    }
}
