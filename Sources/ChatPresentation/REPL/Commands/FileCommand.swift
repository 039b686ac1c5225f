import ChatDomain

/// `/file PATH…`: attach files to the next message (text files as fenced blocks, images as
/// image parts); a quoted glob pattern attaches what it matches, and an `http(s)` URL the page
/// fetched from it.
struct FileCommand: SlashCommand {
    let names = ["file"]
    let usage = "/file PATH..."
    let summary = "attach files (text, images or PDFs) to the next message"

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        context.source.paths(completing: CompletionContext.lastWord(of: argument))
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let argument else {
            context.failure("give one or more paths: /file PATH...; /files lists what is attached")
            return .proceed
        }
        guard let reader = context.parts.attachmentReader else {
            context.failure("files cannot be attached here")
            return .proceed
        }
        let paths = argument.split(whereSeparator: \.isWhitespace).map(String.init)
        switch await reader.read(paths, adding: context.attachments) {
        case .success(let all):
            let added = all.count - context.attachments.count
            context.attachments = all
            context.note(
                "attached \(Counted.text(added, "file")) to the next message (\(Counted.text(all.count, "file")) in all; /files lists them)"
            )
        case .failure(let error):
            context.failure(ErrorWording.line(for: error) + "; nothing attached")
        }
        return .proceed
    }
}
