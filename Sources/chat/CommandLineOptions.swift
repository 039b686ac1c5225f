import ChatConfig
import ChatDomain

/// What the command line asked for.
struct CommandLineOptions: Equatable {
    /// What to do.
    enum Action: Equatable {
        case chat
        case help
        case version
        case list
        case search(String)
        case show(String)
        case export(String)
        /// `--models`: the server's models.
        case models
        /// `--list-roles`: the roles there are.
        case listRoles
        /// `--tools-list`: the tools of the configured MCP servers.
        case toolsList
        /// `--tools-login SERVER`: sign in to an MCP server, and keep its tokens.
        case toolsLogin(String)
        /// `--tools-logout SERVER`: forget an MCP server's tokens.
        case toolsLogout(String)
        /// `--delete ID…`: one or more ids.
        case delete([String])
        /// `--stats`: spending and tokens from the history, by model and day.
        case stats
        /// `--completions SHELL`: the completion script.
        case completions(ShellCompletion.Shell)
        /// The hidden `--man-page`: the man page, in roff (see `CommandLineParser.hiddenRequest`).
        case manPage
        /// The hidden `--completion-values KIND`, which the completion scripts run.
        case completionValues(ShellCompletion.Values)
        /// The hidden `--local-fallback ARGUMENTS…`, which `scripts/chat` runs: whether that
        /// command line would fall back to the local model (`LocalFallback`).
        case localFallback([String])
        /// The hidden `--reference KIND`, which `scripts/docs` runs: a part of the documentation,
        /// as Markdown, from the declarations (`DocsReference`).
        case reference(DocsReference.Kind)

        /// Whether it talks to the chat server: then `ChatCommand` makes the run's client on the
        /// main thread while the settings are read, and the run waits for it (`EarlyClient`).
        /// Every action says, so that a new one cannot wait for a client never made.
        var talksToServer: Bool {
            switch self {
            case .chat, .models: true
            case .help, .version, .list, .search, .show, .export, .listRoles, .toolsList, .toolsLogin, .toolsLogout,
                .delete, .stats, .completions, .manPage, .completionValues, .localFallback, .reference:
                false
            }
        }

        /// The actions an option asks for, in the order they win: of several asked for, the one
        /// done is the first.
        enum Kind: Int, Comparable {
            case help, version, completions, listRoles, toolsList, toolsLogin, toolsLogout, models, list, search, show
            case export, delete, stats

            static func < (a: Kind, b: Kind) -> Bool { a.rawValue < b.rawValue }
        }
    }

    /// How `--export` writes a conversation.
    enum ExportFormat: String, Equatable, CaseIterable {
        case markdown
        case json
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
    /// `-c`: continue the most recently used conversation.
    var continueLast = false
    /// `--conversation ID`: continue that conversation.
    var conversationID: String?
    /// `--format` for `--export`.
    var exportFormat = ExportFormat.markdown
    /// `-n N` for `--list` and `--search`: at most N; nil when not given, 0 for all.
    var listLimit: Int?
    /// `--since DAYS`: how many days back `--stats` goes.
    var statsDays = 30
    /// `--all`: `--list` and `--search` also show conversations with no answer.
    var listAll = false
    /// `-f PATH`, each time given: files to attach to the (first) message.
    var files: [String] = []
    /// `-x`: ask for a shell command and offer to run it.
    var execute = false
    /// `--history-append`: with `-x`, add the command that ran to the shell's history file.
    var historyAppend = false
    /// `--code`: only the code of the answer's code blocks on stdout.
    var codeOnly = false
    /// `--schema` / `--schema-multi`: the JSON the answer must be, read and checked.
    var schema: ResponseSchema?
    /// `--json`: JSON lines on stdout, an answer's events or a listing's entries.
    var json = false
    /// `--raw`: the answer unrendered; the parser turns it into the `render` setting `never`.
    var raw = false
}
