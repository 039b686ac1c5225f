import ChatDomain

/// `/files [clear]`: what is attached to the next message, or drop it all.
struct FilesCommand: SlashCommand {
    let names = ["files"]
    let usage = "/files [clear]"
    let summary = "list the files attached to the next message, or drop them"

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        "clear".hasPrefix(CompletionContext.lastWord(of: argument)) ? ["clear"] : []
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        switch argument {
        case nil:
            let attached = context.attachments
            guard !attached.isEmpty else {
                context.note("nothing attached; /file PATH attaches a file to the next message")
                return .proceed
            }
            var lines = attached.texts.map { "\($0.path)  \(ByteCount.text($0.text.utf8.count)) of text" }
            lines += attached.images.map { "\($0.path)  \(ByteCount.text($0.byteCount)) \($0.mimeType)" }
            context.say(lines.joined(separator: "\n") + "\n")
        case "clear":
            let count = context.attachments.count
            context.attachments = Attachments()
            context.note(count == 0 ? "nothing was attached" : "dropped \(Counted.text(count, "file"))")
        case let other?:
            context.failure("/files takes nothing or clear, not \(other)")
        }
        return .proceed
    }
}
