import ChatConfig

/// The command's own options, each declared once: its names, value, help, completion and what it
/// does. (A setting's option is declared in its `SettingsTable` row.) `--help`, the man page, the
/// completion scripts and the parser read them through `OptionCatalogue`, in this order.
enum CommandOptionTable {
    typealias Flag = CommandLineFlag

    static let all: [CommandOption] = [
        // Rendering
        CommandOption(
            Flag("raw", help: "print the answer as it arrives, unrendered (--render never)"), .toggle { $0.raw = true }),
        CommandOption(
            Flag(
                "code", help: "print only the code of the answer's code blocks (the rest goes to stderr on a terminal)"),
            .toggle { $0.codeOnly = true }),
        CommandOption(
            Flag(
                "json",
                help:
                    "JSON lines on stdout: the answer's events (a prompt or -x), or what --list, --search, --models or "
                    + "--list-roles list"),
            .toggle { $0.json = true }),
        CommandOption(
            Flag(
                "schema", value: "SCHEMA",
                help:
                    "the answer must be JSON matching SCHEMA: a JSON Schema file, inline JSON, or fields like "
                    + "'name, age int, bio: a short biography' (checked; a mismatch exits 1)",
                completion: .file),
            .value { options, text throws(CLIError) in options.schema = try CommandOption.schema(text, multi: false) }),
        CommandOption(
            Flag(
                "schema-multi", value: "SCHEMA",
                help: "as --schema, for a list of such objects: the answer is {\"items\": [...]}", completion: .file),
            .value { options, text throws(CLIError) in options.schema = try CommandOption.schema(text, multi: true) }),
        // Power features
        CommandOption(
            Flag(
                "role", short: "r", value: "NAME",
                help: "answer in role NAME, with its prompt and settings; --list-roles lists them",
                completion: .listed(ShellCompletion.Values.roles.rawValue)),
            .value { options, text throws(CLIError) in
                options.overrides.role = try CommandOption.nonEmpty(text, "--role")
            }),
        CommandOption(
            Flag("list-roles", help: "list the roles: the built-in shell, code and explain, and the config's"),
            .action(.listRoles, .listRoles)),
        CommandOption(
            Flag(
                "execute", short: "x",
                help: "ask for a shell command, show it, and run it if you say y (piped: print it only)"),
            .toggle { $0.execute = true }),
        CommandOption(
            Flag("history-append", help: "with -x, add the command that ran to your shell's history file"),
            .toggle { $0.historyAppend = true }),
        CommandOption(
            Flag(
                "file", short: "f", value: "PATH",
                help:
                    "attach a file to the message: text, or a PNG, JPEG, GIF or WebP image; again for more; - is stdin",
                completion: .file, repeats: true),
            .value { options, text throws(CLIError) in options.files.append(try CommandOption.nonEmpty(text, "--file"))
            }),
        // Tools from MCP servers (-T and --max-tool-rounds are the settings' flags)
        CommandOption(
            Flag("no-tools", help: "offer no tools this run, whatever tools or -T say"),
            .toggle { $0.overrides.noTools = true }),
        CommandOption(
            Flag(
                "yes-tools", value: "SERVER[.TOOL],...",
                help: "run these tools without asking (a server's name alone: all its tools)",
                completion: .listed(ShellCompletion.Values.toolServers.rawValue), repeats: true),
            .value { options, text throws(CLIError) in
                let items = text.split(separator: ",").map(String.init).filter { !$0.isEmpty }
                guard !items.isEmpty else { throw .usage("--yes-tools needs SERVER or SERVER.TOOL") }
                options.overrides.yesTools += items
                options.overrides.yesToolsSource = .flag("--yes-tools")
            }),
        CommandOption(
            Flag(
                "tools-list",
                help: "list the tools of the MCP servers a run would use (-T, tools), else of every configured one"),
            .action(.toolsList, .toolsList)),
        CommandOption(
            Flag(
                "tools-login", value: "SERVER",
                help:
                    "sign in to the MCP server SERVER in the browser (OAuth; BROWSER, else xdg-open, else the URL on "
                    + "stderr) and keep its tokens",
                completion: .listed(ShellCompletion.Values.toolServers.rawValue)),
            .actionValue(.toolsLogin) { text throws(CLIError) in
                .toolsLogin(try CommandOption.nonEmpty(text, "--tools-login"))
            }),
        CommandOption(
            Flag(
                "tools-logout", value: "SERVER", help: "forget the sign-in tokens kept for the MCP server SERVER",
                completion: .listed(ShellCompletion.Values.toolServers.rawValue)),
            .actionValue(.toolsLogout) { text throws(CLIError) in
                .toolsLogout(try CommandOption.nonEmpty(text, "--tools-logout"))
            }),
        CommandOption(
            Flag("models", help: "list the models the server offers (a table on a terminal, one a line when piped)"),
            .action(.models, .models)),
        // History
        CommandOption(
            Flag("all", help: "with --list or --search, also the conversations with no answer"),
            .toggle { $0.listAll = true }),
        CommandOption(
            Flag(
                "limit", short: "n", value: "N",
                help: "with --list or --search, show at most N (default 20 on a terminal, all when piped; 0 for all)"),
            .value { options, text throws(CLIError) in
                guard let limit = Int(text), limit >= 0 else {
                    throw .usage("-n expects a whole number (0 for all), got \"\(text)\"")
                }
                options.listLimit = limit
            }),
        // Where the settings come from
        CommandOption(
            Flag(
                "profile", value: "NAME", help: "a profile from the config; `local` is built in",
                completion: .listed(ShellCompletion.Values.profiles.rawValue)),
            .value { options, text throws(CLIError) in
                options.overrides.profile = try CommandOption.nonEmpty(text, "--profile")
            }),
        CommandOption(
            Flag("config", value: "PATH", help: "config file (default ~/.config/chat/config.json)", completion: .file),
            .value { options, text throws(CLIError) in
                options.overrides.configPath = try CommandOption.nonEmpty(text, "--config")
            }),
        // Modes
        CommandOption(
            Flag("verbose", short: "v", help: "show requests and responses on stderr (secrets hidden)"),
            .toggle { $0.verbose = true }),
        CommandOption(Flag("interactive", short: "i", help: "start the REPL"), .toggle { $0.interactive = true }),
        CommandOption(
            Flag("continue", short: "c", help: "continue the most recently used conversation that has an answer"),
            .toggle { $0.continueLast = true }),
        CommandOption(
            Flag(
                "conversation", value: "ID", help: "continue conversation ID (any unique prefix of it)",
                completion: .listed(ShellCompletion.Values.conversations.rawValue)),
            .value { options, text throws(CLIError) in
                options.conversationID = try CommandOption.nonEmpty(text, "--conversation")
            }),
        // Actions on the stored conversations
        CommandOption(Flag("list", help: "list stored conversations, most recently used first"), .action(.list, .list)),
        CommandOption(
            Flag("search", value: "TEXT", help: "find stored conversations that mention TEXT (every word after it)"),
            .actionValue(.search) { text throws(CLIError) in .search(try CommandOption.nonEmpty(text, "--search")) }),
        CommandOption(
            Flag(
                "show", value: "ID", help: "print a stored conversation",
                completion: .listed(ShellCompletion.Values.conversations.rawValue)),
            .actionValue(.show) { text throws(CLIError) in .show(try CommandOption.nonEmpty(text, "--show")) }),
        CommandOption(
            Flag(
                "export", value: "ID", help: "write a stored conversation out",
                completion: .listed(ShellCompletion.Values.conversations.rawValue)),
            .actionValue(.export) { text throws(CLIError) in .export(try CommandOption.nonEmpty(text, "--export")) }),
        CommandOption(
            Flag(
                "format", value: "FORMAT", help: "how --export writes: markdown (default) or json",
                completion: .words(CommandLineOptions.ExportFormat.allCases.map(\.rawValue))),
            .value { options, text throws(CLIError) in options.exportFormat = try CommandOption.word(text, "--format") }
        ),
        CommandOption(
            Flag(
                "delete", value: "ID", help: "delete stored conversations (more ids may follow)",
                completion: .listed(ShellCompletion.Values.conversations.rawValue)),
            .actionValue(.delete) { text throws(CLIError) in .delete([try CommandOption.nonEmpty(text, "--delete")]) }),
        CommandOption(
            Flag(
                "stats", help: "spending and tokens from the history, by model and day; --since DAYS goes back further"),
            .action(.stats, .stats)),
        CommandOption(
            Flag("since", value: "DAYS", help: "with --stats, the last DAYS days (default 30)"),
            .value { options, text throws(CLIError) in
                guard let days = Int(text), days >= 1, days <= 36_500 else {
                    throw .usage("--since expects a number of days (1 or more), got \"\(text)\"")
                }
                options.statsDays = days
            }),
        // About chat itself
        CommandOption(
            Flag(
                "completions", value: "SHELL", help: "print the completion script for SHELL: bash, zsh or fish",
                completion: .words(ShellCompletion.Shell.allCases.map(\.rawValue))),
            .actionValue(.completions) { text throws(CLIError) in
                .completions(try CommandOption.word(text, "--completions"))
            }),
        CommandOption(Flag("help", short: "h", help: "show this help"), .action(.help, .help)),
        CommandOption(Flag("version", help: "show the version"), .action(.version, .version)),
    ]
}
