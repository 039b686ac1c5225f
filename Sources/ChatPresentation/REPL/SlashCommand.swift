/// A REPL command: a line whose first word is `/` followed by letters.
enum SlashCommand: Equatable {
    case help
    case exit
    case clear
    case model(String?)
    case models
    case system(String?)
    case history
    case retry
    case undo
    case edit
    case save(String?)
    case load(String?)
    case usage
    case conversations
    case resume(String?)
    case title(String?)
    case unknown(String)

    /// Every command with a one-line description, for `/help` and Tab completion.
    static let catalogue: [(name: String, usage: String, summary: String)] = [
        ("/help", "/help", "list the commands"),
        ("/exit", "/exit", "leave (also /quit, Ctrl-D)"),
        ("/quit", "/quit", "leave"),
        ("/clear", "/clear", "start a new conversation (the system prompt stays)"),
        ("/model", "/model [NAME]", "show the model, or switch to NAME"),
        ("/models", "/models", "list the models the server offers"),
        ("/system", "/system [TEXT]", "show the system prompt, or set it to TEXT"),
        ("/history", "/history", "show the conversation, both sides"),
        ("/retry", "/retry", "ask again for an answer to the last message"),
        ("/undo", "/undo", "drop the last exchange"),
        ("/edit", "/edit", "write a message in $EDITOR, then send it"),
        ("/save", "/save FILE", "save the conversation as JSON"),
        ("/load", "/load FILE", "continue a conversation saved with /save"),
        ("/usage", "/usage", "tokens per turn and in total"),
        ("/conversations", "/conversations", "list stored conversations, most recently used first"),
        ("/resume", "/resume [ID]", "continue a stored conversation (default: the most recent other one)"),
        ("/title", "/title TEXT", "rename this conversation in the history"),
    ]

    /// The command a line holds, or nil when the line is a message. `//text` is the message
    /// `/text`: one slash is removed by the caller.
    init?(line: String) {
        guard line.hasPrefix("/"), !line.hasPrefix("//") else { return nil }
        let body = line.dropFirst()
        let name = body.prefix { !$0.isWhitespace }
        guard let first = name.first, first.isLetter, name.allSatisfy({ $0.isLetter || $0 == "-" }) else {
            return nil
        }
        let rest = body.dropFirst(name.count).trimmingCharacters()
        let argument = rest.isEmpty ? nil : rest
        switch name.lowercased() {
        case "help", "h", "?": self = .help
        case "exit", "quit", "q": self = .exit
        case "clear", "new": self = .clear
        case "model": self = .model(argument)
        case "models": self = .models
        case "system": self = .system(argument)
        case "history": self = .history
        case "retry": self = .retry
        case "undo": self = .undo
        case "edit": self = .edit
        case "save": self = .save(argument)
        case "load": self = .load(argument)
        case "usage": self = .usage
        case "conversations", "list": self = .conversations
        case "resume": self = .resume(argument)
        case "title": self = .title(argument)
        default: self = .unknown("/" + name)
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing whitespace.
    func trimmingCharacters() -> String {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return start < end ? String(self[start..<end]) : ""
    }
}
