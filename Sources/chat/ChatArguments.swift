import ArgumentParser
import ChatData

/// Every flag of `chat`, declared once: `--help` is generated from these declarations.
/// `CommandLineParser` turns them into `CommandLineOptions`.
///
/// The settings flags come first. A property that sets a setting is named after its config key
/// in camelCase (`maxTokens` sets `max_tokens`; a `Bool` flag `noStream` sets `stream` to false),
/// so its default long name (`--max-tokens`) follows the key, and `applySettings(to:original:)`
/// reads them all the same way; a new setting's flag is one declaration here. Values are text:
/// the settings table checks them, with its messages. They are declared here, not in an
/// `@OptionGroup` of their own: a group costs ArgumentParser a second reflection of its type at
/// every start (measured: about 0.4 ms, 4% of `chat --version`).
struct ChatArguments: ParsableCommand {
    static var configuration: CommandConfiguration {
        CompletionShell.requesting == nil ? parsing : scripting
    }

    /// What `chat` does, in a few words: `--help`'s first line and the man page's NAME.
    static let summary = "talk to any OpenAI-compatible chat API from the terminal"

    /// The configuration ArgumentParser parses with.
    private static let parsing = CommandConfiguration(
        commandName: "chat",
        // Marks the command as part of a larger tool, which stops ArgumentParser from parsing the
        // command line twice more at every start to look for `--generate-completion-script` (about
        // 0.2 ms); the completion scripts are generated on request instead (`ShellCompletion`).
        _superCommandName: "",
        abstract: "chat \(ChatDataVersion.string): \(summary).",
        usage: """
            chat [options] PROMPT...          ask once; the answer streams to stdout
            COMMAND | chat [options] [PROMPT] piped text is the prompt, or follows PROMPT
            chat [options]                    on a terminal: start the REPL
            chat -i [options] [PROMPT]        start the REPL always (reads lines from stdin if piped)
            chat -x [options] PROMPT...       one shell command, run only if you say y
            """,
        discussion: """
            Options come before the prompt: every word from the prompt on is prompt text, even one \
            that starts with - (chat what is -5 squared); -- also ends the options. The settings \
            can be set in the config file too (config.example.json shows every key).

            Environment: OPENAI_API_KEY, OPENAI_BASE_URL, SSL_CERT_FILE, CURL_CA_BUNDLE, NO_COLOR, XDG_CONFIG_HOME, \
            XDG_DATA_HOME.
            History: $XDG_DATA_HOME/chat/history.sqlite (else ~/.local/share/chat/).
            Exit status: 0 answered, 1 API or network failure, 2 usage or config error,
            130 interrupted (Ctrl-C), 143 terminated (SIGTERM), 129 hung up (SIGHUP).
            """,
        helpNames: [])

    /// The configuration a completion script is generated with: a command of its own, as it is to
    /// the shell.
    private static let scripting = {
        var configuration = parsing
        configuration._superCommandName = nil
        return configuration
    }()

    // MARK: Settings (see above)
    @Option(
        name: .shortAndLong, parsing: .unconditional,
        help: ArgumentHelp("model to ask (default gpt-4o-mini)", valueName: "NAME"))
    var model: String?

    @Option(
        name: [.customShort("s"), .customLong("system")], parsing: .unconditional,
        help: ArgumentHelp("system prompt", valueName: "TEXT"))
    var systemPrompt: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("sampling temperature, 0 to 2 (default: the server's)", valueName: "N"))
    var temperature: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("upper bound on answer tokens (sent as max_tokens)", valueName: "N"))
    var maxTokens: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("nucleus sampling: the top share of probability to pick from, 0 to 1", valueName: "P"))
    var topP: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("API root (default https://api.openai.com/v1)", valueName: "URL"))
    var baseURL: String?

    @Flag(help: "ask for the whole answer at once")
    var noStream = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("give up connecting after SECS (default 10)", valueName: "SECS"))
    var connectTimeout: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("give up when no data arrives for SECS (default 60)", valueName: "SECS"))
    var idleTimeout: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("send a failed request again up to N times (default 2)", valueName: "N"))
    var retries: String?

    // MARK: TLS

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "verify the server with the CA certificates in FILE (PEM; default: SSL_CERT_FILE, CURL_CA_BUNDLE, "
                + "the system's)", valueName: "FILE"))
    var caCert: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("show the client certificate in FILE (PEM) to a server that wants one", valueName: "FILE"))
    var clientCert: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("the client certificate's private key (PEM), if not in its file", valueName: "FILE"))
    var clientKey: String?

    @Flag(help: "allow sending the API key over plain http to another host")
    var allowInsecureHTTP = false

    @Flag(help: "store nothing for this run (not even input history)")
    var noHistory = false

    // MARK: Rendering

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "render the answer's Markdown: auto (on a terminal; the default), always or never", valueName: "WHEN"))
    var render: String?

    @Flag(help: "print the answer as it arrives, unrendered (--render never)")
    var raw = false

    @Flag(help: "print only the code of the answer's code blocks (the rest goes to stderr on a terminal)")
    var code = false

    // MARK: The command's own

    // MARK: Power features

    @Option(
        name: .shortAndLong, parsing: .unconditional,
        help: ArgumentHelp(
            "answer in role NAME, with its prompt and settings; --list-roles lists them", valueName: "NAME"),
        completion: ShellCompletion.values(.roles))
    var role: String?

    @Flag(help: "list the roles: the built-in shell, code and explain, and the config's")
    var listRoles = false

    @Flag(
        name: [.customShort("x"), .customLong("execute")],
        help: "ask for a shell command, show it, and run it if you say y (piped: print it only)")
    var execute = false

    @Flag(help: "with -x, add the command that ran to your shell's history file")
    var historyAppend = false

    @Option(
        name: .shortAndLong, parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "attach a file to the message: text, or a PNG, JPEG, GIF or WebP image; again for more; - is stdin",
            valueName: "PATH"),
        completion: .file())
    var file: [String] = []

    @Flag(help: "list the models the server offers (a table on a terminal, one a line when piped)")
    var models = false

    @Flag(help: "with --list or --search, also the conversations with no answer")
    var all = false

    @Option(
        name: [.customShort("n"), .customLong("limit")], parsing: .unconditional,
        help: ArgumentHelp(
            "with --list or --search, show at most N (default 20 on a terminal, all when piped; 0 for all)",
            valueName: "N"))
    var limit: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("a profile from the config; `local` is built in", valueName: "NAME"),
        completion: ShellCompletion.values(.profiles))
    var profile: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("config file (default ~/.config/chat/config.json)", valueName: "PATH"),
        completion: .file())
    var config: String?

    @Flag(name: .shortAndLong, help: "show requests and responses on stderr (secrets hidden)")
    var verbose = false

    @Flag(name: .shortAndLong, help: "start the REPL")
    var interactive = false

    @Flag(
        name: [.customShort("c"), .customLong("continue")],
        help: "continue the most recently used conversation that has an answer")
    var continueLast = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("continue conversation ID (any unique prefix of it)", valueName: "ID"),
        completion: ShellCompletion.values(.conversations))
    var conversation: String?

    @Flag(help: "list stored conversations, most recently used first")
    var list = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("find stored conversations that mention TEXT (every word after it)", valueName: "TEXT"))
    var search: String?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("print a stored conversation", valueName: "ID"),
        completion: ShellCompletion.values(.conversations))
    var show: String?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("write a stored conversation out", valueName: "ID"),
        completion: ShellCompletion.values(.conversations))
    var export: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("how --export writes: markdown (default) or json", valueName: "FORMAT"),
        completion: .list(["markdown", "json"]))
    var format: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("delete stored conversations (more ids may follow)", valueName: "ID"),
        completion: ShellCompletion.values(.conversations))
    var delete: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("print the completion script for SHELL: bash, zsh or fish", valueName: "SHELL"),
        completion: .list(["bash", "zsh", "fish"]))
    var completions: String?

    @Flag(name: .shortAndLong, help: "show this help")
    var help = false

    @Flag(help: "show the version")
    var version = false

    /// The first word that is not an option, and every word after it (see `CommandLineParser`).
    @Argument(parsing: .captureForPassthrough, help: .hidden)
    var prompt: [String] = []
}
