import ChatDomain

/// `/models`: the models the server offers, the current one marked.
struct ModelsCommand: SlashCommand {
    let names = ["models"]
    let usage = "/models"
    let summary = "list the models the server offers"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        switch await context.parts.useCase.models() {
        case .failure(let error):
            context.failure(ErrorWording.line(for: error))
        case .success(let models) where models.isEmpty:
            context.note("the server lists no models")
        case .success(let models):
            // The ids are the server's words: shown as `ServerText`, one line each.
            let current = context.conversation.settings.model
            let lines = models.map { ($0.id == current ? "* " : "  ") + ServerText.line($0.id, limit: 120) }
            context.say(lines.joined(separator: "\n") + "\n")
        }
        return .proceed
    }
}
