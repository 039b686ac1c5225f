import ChatPresentation
import ChatSystem

/// `chat.1`, the man page (`chat --man-page`, which `scripts/install` runs): a small roff
/// renderer, with the synopsis and the options from `HelpText` and `OptionCatalogue` as `--help`
/// has them, and the REPL's commands from `SlashCommandList`. The sections a man page has that no
/// declaration holds (environment, files, exit status, examples, see also) are written here.
enum ManualPage {
    /// The page, in roff with the man macros.
    static var text: String {
        var page = Roff()
        page.line(".TH CHAT 1 \"\" \"chat \(ChatVersion.string)\" \"User Commands\"")
        // Left-aligned, no hyphenation: names and options stay whole.
        page.line(".nh")
        page.line(".ad l")
        page.section("NAME")
        page.text("chat - \(ProductDescription.summary)")

        let usages = Self.usages(HelpText.usage)
        page.section("SYNOPSIS")
        page.line(".nf")
        for usage in usages { page.line(Roff.synopsis(usage.form)) }
        page.line(".fi")

        page.section("DESCRIPTION")
        page.text(ProductDescription.paragraph)
        for usage in usages { page.item(Roff.synopsis(usage.form), usage.meaning) }
        // The discussion's first paragraph is the prompt rule; its other lines, in short, are the
        // sections below.
        let discussion = HelpText.discussion
        page.paragraph(String(discussion[..<(discussion.firstRange(of: "\n\n")?.lowerBound ?? discussion.endIndex)]))
        page.paragraph(output)

        page.section("OPTIONS")
        for flag in OptionCatalogue.entries.map(\.flag) {
            // Short names first, as --help lists them.
            var title = ShellCompletion.names(flag).map(Roff.bold).joined(separator: ", ")
            if let value = flag.valueName { title += " " + Roff.italic(value) }
            page.item(title, flag.help)
        }

        page.section("REPL COMMANDS")
        page.text(repl)
        for command in SlashCommandList.entries { page.item(Roff.bold(command.usage), command.summary) }

        page.section("ENVIRONMENT")
        for (name, meaning) in environment { page.item(Roff.bold(name), meaning) }

        page.section("FILES")
        for (path, meaning) in files { page.item(Roff.italic(path), meaning) }

        page.section("EXIT STATUS")
        for entry in ExitStatus.table { page.item(Roff.bold(String(entry.status)), entry.meaning) }

        page.section("EXAMPLES")
        for (meaning, command) in examples {
            page.paragraph(meaning)
            page.example(command)
        }

        page.section("SEE ALSO")
        page.text(seeAlso)
        return page.output
    }

    // MARK: What no declaration holds

    static let output = """
        Only the model's answer goes to standard output, ending with a newline, so a redirection \
        or a pipe gets the answer alone; notes, warnings and errors go to standard error, as one \
        line that says what to do. The API key is never shown. Settings come from the flags, then \
        the chosen profile, then OPENAI_BASE_URL and OPENAI_API_KEY, then the config file's top \
        level, then the defaults. A server on this machine (127.0.0.1, localhost, ::1) needs no \
        key; any other needs one, and a key is never taken from a flag.
        """

    static let repl = """
        chat with no prompt on a terminal, or chat -i, keeps one conversation going: each line is \
        a message, and a line whose first word is / and letters is a command (begin a message with \
        // to send a line that starts with /). Up and Down recall earlier lines, Tab completes a \
        command, Ctrl-C stops an answer (the text shown stays) or discards the line, Ctrl-D leaves. \
        A line of three double quotes starts and ends a message of several lines.
        """

    static let environment: [(String, String)] = [
        (
            "OPENAI_API_KEY",
            "The API key, sent as Authorization: Bearer. It goes only to the server it is for: a "
                + "profile that sets its own base_url uses only the key it names."
        ),
        ("OPENAI_BASE_URL", "The API root, when no flag and no profile gives one."),
        (
            "ANTHROPIC_API_KEY",
            "The key for the anthropic provider, sent as x-api-key, and only to it (OPENAI_API_KEY never "
                + "is). Set with no OPENAI_API_KEY, OPENAI_BASE_URL or config naming a server, chat uses the "
                + "built-in anthropic profile."
        ),
        ("NO_COLOR", "No colour, even on a terminal."),
        ("XDG_CONFIG_HOME", "Where the config file is looked for (default ~/.config)."),
        ("XDG_DATA_HOME", "Where the history is kept (default ~/.local/share)."),
        ("VISUAL, EDITOR", "The editor /edit opens."),
        (
            "https_proxy, HTTPS_PROXY, http_proxy, ALL_PROXY, NO_PROXY",
            "Proxies, read by libcurl; the config's proxy setting overrides them."
        ),
    ]

    static let files: [(String, String)] = [
        (
            "$XDG_CONFIG_HOME/chat/config.json",
            "The config file (default ~/.config/chat/config.json; --config names another): settings, "
                + "key sources (api_key_env, api_key_file, api_key_command) and profiles. It is optional; "
                + "config.example.json in the source shows every key."
        ),
        (
            "$XDG_DATA_HOME/chat/history.sqlite",
            "The stored conversations (default ~/.local/share/chat/), a SQLite database, mode 0600 in "
                + "a directory of mode 0700; --no-history, or \"history\": false in the config, stores nothing."
        ),
        ("$XDG_DATA_HOME/chat/input_history", "The lines typed in the REPL, for Up and Down."),
        ("$XDG_DATA_HOME/chat/local-model/", "The small local model and llama.cpp server chat-local-model prepares."),
    ]

    static let examples: [(String, String)] = [
        ("Ask once; the answer streams to standard output:", "chat \"name three prime numbers\""),
        (
            "Piped text is the prompt, or follows the prompt after a blank line:",
            "git diff | chat \"review this change\""
        ),
        (
            "Options come before the prompt; the rest is prompt text:",
            "chat -m gpt-4o --temperature 0.2 what is -5 squared"
        ),
        (
            "Continue the most recently used conversation, or a stored one by id:",
            "chat -c \"three more\"\nchat --list\nchat --conversation k3v \"why is 1 not prime?\""
        ),
        ("A server on this machine needs no key:", "chat --base-url http://localhost:11434/v1 -m llama3.2 \"hello\""),
        (
            "No API key at all: a small model on this machine, for the built-in local profile:",
            "chat-local-model start\nchat --profile local \"hello\""
        ),
        (
            "For a script: the answer as JSON matching a schema, and the events as JSON lines (the usage with jq):",
            "chat --schema 'name, age int' \"who wrote Dune?\"\nchat --json \"hello\" | jq 'select(.type == \"usage\")'"
        ),
        ("Completion for bash, without installing it:", "source <(chat --completions bash)"),
    ]

    static let seeAlso = """
        chat-local-model (start, stop, status: the llama.cpp server of the built-in local profile), \
        curl(1), sqlite3(1). The chat(8) of the Debian package ppp is another program of the same \
        name. The README and the pages of docs/ in the source describe the configuration, the \
        providers, tools, the history and every error.
        """

    // MARK: From the declarations

    /// The usage lines of the configuration: each a form (`chat [options] PROMPT...`) and what it
    /// does, in a column of its own (where the first gap of two spaces or more ends).
    private static func usages(_ text: String) -> [(form: String, meaning: String)] {
        let lines = text.split(separator: "\n").map(Array.init)
        let column = lines.lazy.compactMap { line in
            line.indices.dropFirst().first { line[$0] != " " && line[$0 - 1] == " " && line[$0 - 2] == " " }
        }.first
        return lines.map { line in
            let split = min(column ?? line.count, line.count)
            return (
                String(line[..<split]).trimmingSuffix(" "),
                String(line[split...]).trimmingSuffix(" ")
            )
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ character: Character) -> String {
        var text = self
        while text.last == character { text.removeLast() }
        return text
    }
}

/// Text in roff, with the man macros.
private struct Roff {
    private(set) var output = ""

    mutating func line(_ text: String) { output += text + "\n" }

    mutating func section(_ title: String) { line(".SH \(title)") }

    /// Running text.
    mutating func text(_ text: String) { line(Self.escaped(text)) }

    mutating func paragraph(_ text: String) {
        line(".PP")
        self.text(text)
    }

    /// A tagged paragraph: `title` (roff already) over `text`.
    mutating func item(_ title: String, _ text: String) {
        line(".TP")
        line(title)
        self.text(text)
    }

    /// Lines set as typed, indented.
    mutating func example(_ text: String) {
        line(".PP")
        line(".RS 4")
        line(".nf")
        for example in text.split(separator: "\n") { line(Self.escaped(String(example))) }
        line(".fi")
        line(".RE")
    }

    static func bold(_ text: String) -> String { "\\fB\(escaped(text))\\fR" }

    static func italic(_ text: String) -> String { "\\fI\(escaped(text))\\fR" }

    /// A usage form: `chat` and options bold, placeholders italic, brackets and `|` as they are.
    static func synopsis(_ form: String) -> String {
        form.split(separator: " ").map { word in
            var core = Substring(word)
            var (head, tail) = ("", "")
            while let first = core.first, first == "[" {
                head.append(first)
                core.removeFirst()
            }
            for suffix in ["...", "]"] {
                while core.hasSuffix(suffix) {
                    tail = suffix + tail
                    core.removeLast(suffix.count)
                }
            }
            guard !core.isEmpty, core != "|" else { return escaped(String(word)) }
            let styled = core == "chat" || core.hasPrefix("-") ? bold(String(core)) : italic(String(core))
            return escaped(head) + styled + escaped(tail)
        }.joined(separator: " ")
    }

    /// `text` safe in roff: backslashes and minus signs escaped, a control character at the start
    /// of a line neutralised, `code` spans bold.
    static func escaped(_ text: String) -> String {
        var result = ""
        var inCode = false
        for character in text {
            switch character {
            case "\\": result += "\\e"
            case "-": result += "\\-"
            case "`":
                result += inCode ? "\\fR" : "\\fB"
                inCode.toggle()
            default: result.append(character)
            }
        }
        return result.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.first == "." || line.first == "'" ? "\\&" + line : String(line)
        }.joined(separator: "\n")
    }
}
