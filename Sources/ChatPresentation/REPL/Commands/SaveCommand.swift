import ChatDomain

/// `/save FILE`: the conversation as JSON, written atomically.
struct SaveCommand: ConversationFileCommand {
    let names = ["save"]
    let usage = "/save FILE"
    let summary = "save the conversation as JSON"

    func run(path: String, in context: REPLContext) throws(StorageError) {
        try context.parts.archive.save(context.conversation, to: path)
        context.note("saved \(context.conversation.messages.count) messages to \(path)")
    }
}
