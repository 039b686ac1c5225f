/// `/load FILE`: continue a conversation saved with /save.
struct LoadCommand: SlashCommand {
    let names = ["load"]
    let usage = "/load FILE"
    let summary = "continue a conversation saved with /save"

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        context.source.paths(completing: CompletionContext.lastWord(of: argument))
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let path = argument else {
            context.failure("give a file name: /save FILE, /load FILE")
            return .proceed
        }
        do {
            context.switchTo(try context.parts.archive.load(from: path))
            let loaded = context.conversation
            context.note("loaded \(loaded.messages.count) messages from \(path) (model \(loaded.settings.model))")
        } catch {
            context.failure(ErrorWording.line(for: error))
        }
        return .proceed
    }
}
