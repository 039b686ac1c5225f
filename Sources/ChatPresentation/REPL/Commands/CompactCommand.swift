import ChatDomain

/// `/compact [INSTRUCTIONS]`: the model summarises the conversation so far, and later requests
/// carry the summary in place of the messages it covers (which the conversation and the
/// history keep).
struct CompactCommand: SlashCommand {
    let names = ["compact"]
    let usage = "/compact [INSTRUCTIONS]"
    let summary = "summarise the conversation so far; requests then carry the summary in its place"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        var conversation = context.conversation
        let new = conversation.messages.count - (conversation.compaction?.coveredMessages ?? 0)
        guard new > 0 else {
            context.note(
                conversation.messages.isEmpty ? "nothing to compact yet: there is no conversation" : Self.nothingNew)
            return .proceed
        }
        context.note("summarising \(Counted.text(new, "message"))…")
        switch await context.parts.useCase.compact(&conversation, instructions: argument) {
        case .success(0):
            context.note(
                conversation.compaction == nil ? "nothing to compact yet: there is no answer" : Self.nothingNew)
        case .success(let covered):
            context.conversation = conversation
            let tokens = conversation.compaction.map { Conversation.estimate($0.requestMessages) } ?? 0
            context.note(
                "\(Counted.text(covered, "message")) summarised in about \(Counted.text(tokens, "token")): later "
                    + "requests carry the summary in their place (the history keeps every message; --show marks "
                    + "where the summary applies)")
        case .failure(let error):
            context.failure(ErrorWording.line(for: error))
            context.note("(nothing was compacted: the conversation goes on as it was)")
        }
        return .proceed
    }

    static let nothingNew = "nothing to compact: there is no answer since the last summary"
}
