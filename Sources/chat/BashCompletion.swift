import ChatConfig

/// The completion script for bash (`chat --completions bash`), written from the options.
enum BashCompletion {
    static func script(_ flags: [CommandLineFlag]) -> String {
        let valued = flags.filter(\.takesValue)
        let allNames = flags.flatMap(ShellCompletion.names).joined(separator: "\\n")
        var text = """
            #!/bin/bash
            # Completion for chat in bash, written by `chat --completions bash` from chat's options.

            # Offers what `compgen ARGUMENTS` gives for the word being completed, a line each.
            __chat_offer() {
                local line
                while IFS='' read -r line; do
                    COMPREPLY+=("${line}")
                done < <(IFS=$'\\n' compgen "${@}" -- "${cur}")
            }

            _chat() {
                local -r cur="${COMP_WORDS[COMP_CWORD]}"
                local option=''
                local -i index
                # Options come before the prompt: from the first prompt word (or --) on, every word
                # is prompt text and nothing is offered. An option that takes a value takes the next
                # word (bash splits --name=value at the =).
                for ((index = 1; index < COMP_CWORD; index++)); do
                    case "${COMP_WORDS[index]}" in
                    -- | - | -[0-9.]* | [!-]* | '')
                        return
                        ;;
                    \(valued.flatMap(ShellCompletion.names).map(quoted).joined(separator: " | ")))
                        option="${COMP_WORDS[index]}"
                        [[ "${COMP_WORDS[index + 1]}" == = ]] && ((index++))
                        ((++index == COMP_CWORD)) && break
                        option=''
                        ;;
                    esac
                done

                case "${option}" in
                '')
                    [[ "${cur}" == -* ]] && __chat_offer -W $'\(allNames)'
                    ;;

            """
        for flag in valued {
            guard let offer = offer(flag.completion) else { continue }
            text += "    \(ShellCompletion.names(flag).map(quoted).joined(separator: " | ")))\n"
            text += "        __chat_offer \(offer)\n"
            text += "        ;;\n"
        }
        text += """
                esac
            }

            complete -o filenames -F _chat chat

            """
        return text
    }

    /// The arguments of `__chat_offer` for a value completed as `completion`; nil for none.
    private static func offer(_ completion: CommandLineFlag.Completion) -> String? {
        switch completion {
        case .none:
            return nil
        case .file:
            return "-f"
        case .words(let words):
            return "-W $'" + words.map(escaped).joined(separator: "\\n") + "'"
        case .listed(let kind):
            // Names only (the first field); a leading ~ typed for the program is expanded.
            return "-W \"$(\"${COMP_WORDS[0]/#\\~/$HOME}\" \(ShellCompletion.query(kind)) | cut -f1)\""
        }
    }

    /// `word` in single quotes.
    private static func quoted(_ word: String) -> String {
        "'" + word.replacing("'", with: "'\\''") + "'"
    }

    /// `word` inside `$'…'`.
    private static func escaped(_ word: String) -> String {
        word.replacing("\\", with: "\\\\").replacing("'", with: "\\'")
    }
}
