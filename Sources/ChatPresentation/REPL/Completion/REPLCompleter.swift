/// What Tab offers in the REPL for the text before the cursor: command names while the first
/// word is typed, then what that command offers for its argument (models after `/model`, paths
/// after `/load`, `/save` and `/file`, conversations after `/resume`, roles after `/role`).
/// A match may carry a description after a tab, which the line editor shows beside it.
public struct REPLCompleter: Sendable {
    private let context: CompletionContext

    /// Completes from `source`, the role names `roles` and the run's MCP servers `toolServers`.
    public init(source: any CompletionSource, roles: [String] = [], toolServers: [String] = []) {
        context = CompletionContext(source: source, roleNames: roles, toolServers: toolServers)
    }

    /// The matches for `line`, the text before the cursor.
    public func completions(for line: String) -> [String] {
        SlashCommandRegistry.standard.completions(for: line, in: context)
    }
}
