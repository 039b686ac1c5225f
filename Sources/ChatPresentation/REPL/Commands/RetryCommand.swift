/// `/retry`: ask again for an answer to the last message, replacing the answer after it (which
/// the history keeps: `/answers` steps back to it).
struct RetryCommand: SlashCommand {
    let names = ["retry"]
    let usage = "/retry"
    let summary = "ask again for an answer to the last message"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        await context.retry()
        return .proceed
    }
}
