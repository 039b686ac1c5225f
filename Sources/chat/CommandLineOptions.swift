import ChatData

/// What the command line asked for.
struct CommandLineOptions: Equatable {
    /// What to do.
    enum Action: Equatable {
        case chat
        case help
        case version
    }

    var action = Action.chat
    /// Settings that win over the config and environment.
    var overrides = SettingOverrides()
    /// The prompt words, joined by spaces; nil when none were given.
    var prompt: String?
    /// `-i`: keep the conversation going in a REPL.
    var interactive = false
    /// `-v`: request and response diagnostics on stderr, secrets redacted.
    var verbose = false
}
