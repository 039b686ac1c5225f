import ChatSystem

/// `chat --help`: what `chat` is (`ProductDescription`), the prompt rule and the rest in short, the
/// usage forms, and every option of `OptionCatalogue`, each with its help, wrapped at 100 columns.
/// The man page (`ManualPage`) says the same at length.
enum HelpText {
    /// The forms of the command, each with what it does after two spaces or more.
    static let usage = """
        chat [options] PROMPT...          ask once; the answer streams to stdout
        COMMAND | chat [options] [PROMPT] piped text is the prompt, or follows PROMPT
        chat [options]                    on a terminal: start the REPL
        chat -i [options] [PROMPT]        start the REPL always (reads lines from stdin if piped)
        chat -x [options] PROMPT...       one shell command, run only if you say y
        """

    /// The prompt rule (the first paragraph), then the environment, files and exit statuses in short.
    static let discussion = """
        Options come before the prompt: every word from the prompt on is prompt text, even one \
        that starts with - (chat what is -5 squared); -- also ends the options. The settings \
        can be set in the config file too (config.example.json shows every key).

        Environment: OPENAI_API_KEY, OPENAI_BASE_URL, ANTHROPIC_API_KEY, SSL_CERT_FILE, CURL_CA_BUNDLE, NO_COLOR, XDG_CONFIG_HOME, \
        XDG_DATA_HOME.
        History: $XDG_DATA_HOME/chat/history.sqlite (else ~/.local/share/chat/).
        """

    private static let width = 100
    /// Where an option's help starts.
    private static let helpColumn = 26

    /// The whole help, ending with one newline.
    static var text: String {
        var lines = ["OVERVIEW: chat \(ChatVersion.string): \(ProductDescription.summary).", ""]
        lines += wrapped(ProductDescription.paragraph, indent: 0) + [""]
        for line in discussion.split(separator: "\n", omittingEmptySubsequences: false) {
            lines += wrapped(String(line), indent: 0)
        }
        lines += wrapped("Exit status: " + ExitStatus.short + ".", indent: 0)
        lines.append("")
        for (index, line) in usage.split(separator: "\n").enumerated() {
            lines.append((index == 0 ? "USAGE: " : "       ") + line)
        }
        lines += ["", "OPTIONS:"]
        for entry in OptionCatalogue.entries {
            let flag = entry.flag
            var label = "  " + ShellCompletion.names(flag).joined(separator: ", ")
            if let value = flag.valueName { label += " <\(value)>" }
            let help = wrapped(flag.help, indent: helpColumn)
            if label.count + 2 > helpColumn {
                lines.append(label)
                lines += help
            } else {
                let first = help.first.map { String($0.dropFirst(helpColumn)) } ?? ""
                lines.append(label.padding(to: helpColumn) + first)
                lines += help.dropFirst()
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `text` in lines of `width` columns at most, each indented by `indent` spaces; a line that
    /// more text follows keeps its last column free, as ArgumentParser's help did.
    private static func wrapped(_ text: String, indent: Int) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        var line = margin
        let words = text.split(separator: " ")
        for (index, word) in words.enumerated() {
            let limit = index == words.count - 1 ? width : width - 1
            if line.count > indent && line.count + 1 + word.count > limit {
                lines.append(line)
                line = margin
            }
            line += (line.count > indent ? " " : "") + word
        }
        lines.append(line)
        return lines
    }
}

extension String {
    /// The string with spaces added up to `count` characters.
    fileprivate func padding(to count: Int) -> String {
        self + String(repeating: " ", count: Swift.max(0, count - self.count))
    }
}
