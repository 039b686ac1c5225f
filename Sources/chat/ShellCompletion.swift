import ArgumentParser

/// `chat --completions bash|zsh|fish`: the completion scripts, which ArgumentParser generates from
/// the declarations in `ChatArguments`. The scripts are static: a value that depends on this
/// machine (a profile in the config, a stored conversation's id) is asked of the `chat` being
/// completed at the time, with the hidden `--completion-values KIND`.
enum ShellCompletion {
    /// What `--completion-values` lists, one a line.
    enum Values: String, CaseIterable {
        /// The profiles `--profile` accepts: the config's and the built-in ones.
        case profiles
        /// Stored conversations, most recently used first: the id, a tab and the title.
        case conversations
        /// The roles `--role` accepts: the name, a tab and what the role is.
        case roles
    }

    /// The shells `--completions` writes a script for.
    static let shells = ["bash", "zsh", "fish"]

    /// The completion script for `shell` (one of `shells`).
    static func script(for shell: String) -> String {
        guard let shell = CompletionShell(rawValue: shell) else { return "" }
        var script = ChatArguments.completionScript(for: shell)
        if !script.hasSuffix("\n") { script += "\n" }
        // ArgumentParser adds a `help` subcommand to every tool's script; chat has none (`chat
        // help` asks the model), so its pieces go. `ShellCompletionTests` checks they are gone.
        switch shell {
        case .bash:
            script.remove(from: "    # Offer subcommand / subcommand argument completions\n", through: "\n    esac\n")
            script.remove(from: "_chat_help() {\n", through: "}\n\n")
        case .zsh:
            script.remove(from: "        '(-): :->command'\n", through: "'(-)*:: :->arg'\n")
            script.remove(from: "    case \"${state}\" in\n", through: "\n    esac\n")
            script.remove(from: "_chat_help() {\n", through: "}\n\n")
        case .fish:
            script.remove(from: "        switch $unparsed_tokens[1]\n        case 'help'\n", through: "        end\n")
            script.remove(from: "complete -c 'chat' -n '__chat_should_offer_completions_for_positional", through: "\n")
        default:
            break
        }
        return script
    }

    /// The completion of a value listed by `--completion-values kind`, in the script being
    /// generated: each shell runs the `chat` it is completing (the first word of the command line)
    /// and reads the lines in its own way. Outside a script's generation (every parse) it is
    /// `.default`.
    static func values(_ kind: Values) -> CompletionKind {
        guard let shell = CompletionShell.requesting else { return .default }
        let query = "--completion-values \(kind.rawValue) 2>/dev/null </dev/null"
        switch shell {
        case .bash:
            // Words only (compgen -W); a leading ~ typed for the program is expanded.
            return .shellCommand("\"${COMP_WORDS[0]/#\\~/$HOME}\" \(query) | cut -f1")
        case .zsh:
            // `_describe` reads value:description; the colon is written \072, as `_arguments`
            // splits its specifications at colons.
            return .shellCommand("\"${command_name}\" \(query) | tr '\\t' '\\072'")
        case .fish:
            // fish shows the text after a tab as the description.
            return .shellCommand("set -l words (commandline -opc); command $words[1] \(query)")
        default:
            return .default
        }
    }
}

extension String {
    /// Removes the first piece that starts with `start` and ends with the first `end` after it.
    fileprivate mutating func remove(from start: String, through end: String) {
        guard let head = firstRange(of: start), let tail = self[head.upperBound...].firstRange(of: end) else { return }
        removeSubrange(head.lowerBound..<tail.upperBound)
    }
}
