import ChatConfig

/// The completion script for zsh (`chat --completions zsh`), written from the options: one
/// `_arguments` specification each.
enum ZshCompletion {
    static func script(_ flags: [CommandLineFlag]) -> String {
        var text = """
            #compdef chat
            # Completion for chat in zsh, written by `chat --completions zsh` from chat's options.

            _chat() {
                local -r command_name="${words[1]}"
                local -a arg_specs=(

            """
        for flag in flags { text += "        " + specification(flag) + "\n" }
        // -A: options come before the prompt, so none is offered after its first word; -S: `--`
        // ends the options.
        text += """
                    '*:prompt: '
                )
                _arguments -S -A '-*' : "${arg_specs[@]}"
            }

            if [[ "${funcstack[1]}" = _chat ]]; then
                _chat "${@}"
            else
                compdef _chat chat
            fi

            """
        return text
    }

    /// `flag` as `_arguments` takes it: `'(-m --model)'{-m,--model}'[model to ask]:NAME:'`.
    private static func specification(_ flag: CommandLineFlag) -> String {
        let names = ShellCompletion.names(flag)
        var spec: String
        if flag.repeats {
            spec = "'*'"
        } else if names.count > 1 {
            spec = "'(\(names.joined(separator: " ")))'"
        } else {
            spec = ""
        }
        spec += names.count > 1 ? "{\(names.joined(separator: ","))}" : names[0]
        var tail = "[\(escaped(flag.help))]"
        if let valueName = flag.valueName {
            tail += ":\(escaped(valueName)):" + action(flag.completion)
        }
        return spec + quoted(tail)
    }

    /// How `_arguments` completes a value.
    private static func action(_ completion: CommandLineFlag.Completion) -> String {
        switch completion {
        case .none:
            return ""
        case .file:
            return "_files"
        case .words(let words):
            return "(\(words.joined(separator: " ")))"
        case .listed(let kind):
            // `_describe` reads value:description; the colon is written \072, as `_arguments`
            // splits its specifications at colons.
            return "{local -a list;list=(${(f)\"$(\"${command_name}\" \(ShellCompletion.query(kind))"
                + " | tr '\\t' '\\072')\"});_describe -V \"\" list}"
        }
    }

    /// Text inside a specification: its colons and brackets escaped.
    private static func escaped(_ text: String) -> String {
        text.replacing("\\", with: "\\\\").replacing(":", with: "\\:").replacing("[", with: "\\[")
            .replacing("]", with: "\\]")
    }

    /// `text` in single quotes.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
