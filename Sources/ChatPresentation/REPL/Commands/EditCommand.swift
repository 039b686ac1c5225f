import ChatDomain

/// `/edit`: write a message in `$VISUAL`/`$EDITOR`; what is saved is sent. `/edit N`: question N
/// opened in it and asked again from there: the turns after it leave this branch (not the
/// history, where they stay on a branch of their own).
struct EditCommand: SlashCommand {
    let names = ["edit"]
    let usage = "/edit [N]"
    let summary = "write a message in $EDITOR; with N, edit question N and ask it again"

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let editor = context.parts.editor else {
            context.failure("/edit needs a terminal and an editor ($VISUAL or $EDITOR)")
            return .proceed
        }
        guard let argument else {
            switch await editor.edit("") {
            case .success(let text) where !text.allSatisfy(\.isWhitespace):
                await context.parts.reader.remember(text)
                await context.send(text)
            case .success:
                context.note("nothing written; nothing sent")
            case .failure(let failure):
                context.failure(failure.message)
            }
            return .proceed
        }
        guard let index = context.questionIndex(argument, command: "/edit N") else { return .proceed }
        let question = context.conversation.messages[index]
        switch await editor.edit(question.content) {
        case .success(let text) where !text.allSatisfy(\.isWhitespace):
            await context.parts.reader.remember(text)
            await context.branch(before: index)
            await context.send(ChatMessage(role: .user, content: text, images: question.images))
        case .success:
            context.note("nothing written; question \(argument) stays as it was")
        case .failure(let failure):
            context.failure(failure.message)
        }
        return .proceed
    }
}
