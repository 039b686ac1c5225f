import ChatRendering

/// `/copy [N]`: the last answer, or its N-th code block, to the clipboard.
struct CopyCommand: SlashCommand {
    let names = ["copy"]
    let usage = "/copy [N]"
    let summary = "copy the last answer, or its N-th code block, to the clipboard"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let clipboard = context.parts.clipboard else {
            context.failure("no clipboard: standard output is not a terminal and no clipboard program runs here")
            return .proceed
        }
        guard let answer = context.conversation.messages.last(where: { $0.role == .assistant }) else {
            context.failure("nothing to copy yet: there is no answer in this conversation")
            return .proceed
        }
        let text: String
        let what: String
        if let argument {
            let blocks = CodeBlock.all(in: answer.content)
            guard let number = Int(argument), number >= 1 else {
                context.failure("/copy takes a code block's number (/copy 1), or nothing for the whole answer")
                return .proceed
            }
            guard number <= blocks.count else {
                context.failure(
                    blocks.isEmpty
                        ? "the last answer has no code block; /copy copies the whole answer"
                        : "the last answer has \(Counted.text(blocks.count, "code block")): /copy 1"
                            + (blocks.count > 1 ? " to /copy \(blocks.count)" : ""))
                return .proceed
            }
            let block = blocks[number - 1]
            text = block.code
            let language = block.language.isEmpty ? "" : "\(block.language), "
            what = "code block \(number) (\(language)\(Counted.text(block.lineCount, "line")))"
        } else {
            text = answer.content
            what = "the last answer (\(Counted.text(CodeBlock.lineCount(of: text), "line")))"
        }
        switch await clipboard.copy(text) {
        case .copied(let via, let note):
            context.note("copied \(what) through \(via)")
            if let note { context.note(note) }
        case .failed(let reason):
            context.failure("could not copy \(what): \(reason)")
        }
        return .proceed
    }
}
