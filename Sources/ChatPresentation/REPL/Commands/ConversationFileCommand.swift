import ChatDomain

/// A command whose argument is a conversation file (`/save FILE`, `/load FILE`): Tab completes a
/// path, a missing name is a usage note, and a failure is one line from `ErrorWording`.
protocol ConversationFileCommand: SlashCommand {
    /// Does the command with the file at `path`; the file's failure is worded by `ErrorWording`.
    func run(path: String, in context: REPLContext) throws(StorageError)
}

extension ConversationFileCommand {
    func completions(for argument: String, in context: CompletionContext) -> [String] {
        context.source.paths(completing: CompletionContext.lastWord(of: argument))
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let path = argument else {
            context.failure("give a file name: \(usage)")
            return .proceed
        }
        do {
            try run(path: path, in: context)
        } catch {
            context.failure(ErrorWording.line(for: error))
        }
        return .proceed
    }
}
