import ChatDomain

/// `/answers`: the stored answers to the last question (the one shown, and those `/retry`
/// replaced); `/answers N` shows answer N, and the conversation goes on from it.
struct AnswersCommand: SlashCommand {
    let names = ["answers"]
    let usage = "/answers [N]"
    let summary = "list the answers to the last question; with N, go on from answer N"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let history = context.history else { return .proceed }
        let current = context.conversation
        // An answer begins with the first message after the question: with tools, the answer that
        // called them, whose round and the answer it led to follow it on its branch.
        let question = current.messages.lastIndex { $0.role == .user } ?? -1
        guard let id = current.id,
            let shown = current.messages[(question + 1)...].first(where: { $0.role == .assistant }),
            let shownID = shown.storageID
        else {
            context.note("no stored answer yet")
            return .proceed
        }
        let answers: [ChatMessage]
        switch await history.alternatives(to: shownID) {
        case .success(let found): answers = found.isEmpty ? [shown] : found
        case .failure(let error):
            context.failure(ErrorWording.line(for: error))
            return .proceed
        }
        guard let argument else {
            list(answers, shown: shownID, in: context)
            return .proceed
        }
        guard let number = Int(argument), answers.indices.contains(number - 1),
            let chosen = answers[number - 1].storageID
        else {
            context.failure("no answer \(argument): the last question has \(answers.count) (/answers lists them)")
            return .proceed
        }
        switch await history.showBranch(through: chosen, of: id) {
        case .success(let branch):
            context.conversation = Conversation(
                systemPrompt: current.systemPrompt, settings: current.settings, messages: branch.messages, id: id,
                title: current.title, branchedFrom: current.branchedFrom, compaction: branch.compaction)
            context.say(Self.answer(startingAt: chosen, in: branch.messages)?.content ?? "")
            context.say("\n")
            context.note("answer \(number) of \(answers.count); the conversation goes on from it")
        case .failure(let error):
            context.failure(ErrorWording.line(for: error))
        }
        return .proceed
    }

    /// The last answer of the exchange that message `id` begins in `messages`: the answer a
    /// round of tool calls led to, or `id`'s own.
    private static func answer(startingAt id: Int64, in messages: [ChatMessage]) -> ChatMessage? {
        guard let start = messages.firstIndex(where: { $0.storageID == id }) else { return nil }
        let end = messages[start...].firstIndex { $0.role == .user } ?? messages.endIndex
        return messages[start..<end].last { $0.role == .assistant }
    }

    /// One line each, the one shown marked.
    private func list(_ answers: [ChatMessage], shown: Int64, in context: REPLContext) {
        let style = context.parts.outputStyle
        var text = ""
        for (offset, answer) in answers.enumerated() {
            let mark = answer.storageID == shown ? "*" : " "
            var firstLine = answer.content.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            if firstLine.isEmpty, answer.hasToolCalls {
                firstLine = "[tool calls: " + answer.toolCalls.map(\.name).joined(separator: ", ") + "]"
            }
            let preview = firstLine.count > 70 ? String(firstLine.prefix(69)) + "…" : firstLine
            let state = answer.state == .interrupted ? style.dim(" [interrupted]") : ""
            text += "\(mark) \(style.bold(String(offset + 1)))  \(preview)\(state)\n"
        }
        context.say(text)
        context.note(
            answers.count == 1
                ? "(only one answer so far; /retry asks for another)"
                : "(* is the one shown; /answers N goes on from answer N)")
    }
}
