/// One REPL command: the names it answers to, how it is written, what it completes and what it
/// does. Adding a command is a new type here and a line in `SlashCommandRegistry.standard`.
protocol SlashCommand: Sendable {
    /// Its names without the slash, the main one first; Tab offers each.
    var names: [String] { get }
    /// Short names it also answers to, which Tab does not offer (`/q`).
    var aliases: [String] { get }
    /// How it is written, for /help: `/model [NAME]`.
    var usage: String { get }
    /// One line for /help.
    var summary: String { get }
    /// What Tab offers for the last word of its argument as typed so far (`argument` is all of
    /// it); a match may carry a description after a tab.
    func completions(for argument: String, in context: CompletionContext) -> [String]
    /// Runs it with the rest of the line, trimmed; nil when there is none.
    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult
}

extension SlashCommand {
    var aliases: [String] { [] }

    func completions(for argument: String, in context: CompletionContext) -> [String] { [] }
}
