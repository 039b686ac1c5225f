import ChatConfig

/// The completion script for fish (`chat --completions fish`), written from the options: one
/// `complete` line each, offered only before the prompt.
enum FishCompletion {
    static func script(_ flags: [CommandLineFlag]) -> String {
        let valued = flags.filter(\.takesValue).flatMap(ShellCompletion.names).joined(separator: " ")
        var text = """
            # Completion for chat in fish, written by `chat --completions fish` from chat's options.

            # Whether the word being completed comes before the prompt: options come first, and from
            # the first prompt word (or --) on, every word is prompt text. An option that takes a
            # value takes the next word.
            function __chat_before_prompt
                set -l tokens (commandline -opc)
                set -e tokens[1]
                while set -q tokens[1]
                    set -l token $tokens[1]
                    set -e tokens[1]
                    string match -qr -- '^-[^0-9.]' $token; or return 1
                    test "$token" = --; and return 1
                    if contains -- $token \(valued)
                        set -e tokens[1]
                    end
                end
            end

            complete -c chat -f

            """
        for flag in flags {
            var line = "complete -c chat -n __chat_before_prompt -l \(quoted(flag.long))"
            if let short = flag.short { line += " -s \(quoted(String(short)))" }
            line += " -d \(quoted(flag.help))"
            if flag.takesValue { line += " " + arguments(flag.completion) }
            text += line + "\n"
        }
        return text
    }

    /// How fish completes a value.
    private static func arguments(_ completion: CommandLineFlag.Completion) -> String {
        switch completion {
        case .none:
            return "-rf"
        case .file:
            return "-rF"
        case .words(let words):
            return "-rfka \(quoted(words.joined(separator: " ")))"
        case .listed(let kind):
            // fish shows the text after a tab as the description.
            return "-rfka "
                + quoted("(set -l words (commandline -opc); command $words[1] \(ShellCompletion.query(kind)))")
        }
    }

    /// `text` in fish's single quotes.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
