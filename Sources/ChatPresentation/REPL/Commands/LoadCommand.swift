import ChatDomain

/// `/load FILE`: continue a conversation saved with /save.
struct LoadCommand: ConversationFileCommand {
    let names = ["load"]
    let usage = "/load FILE"
    let summary = "continue a conversation saved with /save"

    func run(path: String, in context: REPLContext) throws(StorageError) {
        context.switchTo(try context.parts.archive.load(from: path))
        let loaded = context.conversation
        context.note("loaded \(loaded.messages.count) messages from \(path) (model \(loaded.settings.model))")
    }
}
