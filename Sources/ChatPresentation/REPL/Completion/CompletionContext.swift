/// What a command's Tab completion may draw on: the outside sources and the REPL's own lists.
struct CompletionContext: Sendable {
    /// Models, conversations and files.
    var source: any CompletionSource
    /// The roles `/role` accepts.
    var roleNames: [String]
    /// The MCP servers of the run (`/tools SERVER`).
    var toolServers: [String] = []

    /// The servers `argument`'s first word may name (`/resources SERVER`, `/resource SERVER URI`):
    /// none once a space follows it.
    func servers(completingFirstWordOf argument: String) -> [String] {
        guard !argument.contains(where: \.isWhitespace) else { return [] }
        return toolServers.filter { $0.hasPrefix(argument) }
    }

    /// The word being completed: the last of `argument` (all of it when it has no space).
    static func lastWord(of argument: String) -> String {
        String(argument.reversed().prefix { !$0.isWhitespace }.reversed())
    }
}
