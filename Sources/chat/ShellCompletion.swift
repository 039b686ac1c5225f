import ChatConfig

/// `chat --completions bash|zsh|fish`: the completion scripts, written from `OptionCatalogue`
/// (`BashCompletion`, `ZshCompletion`, `FishCompletion`). The scripts are static: a value that
/// depends on this machine (a profile in the config, a stored conversation's id, a role) is asked
/// of the `chat` being completed at the time, with the hidden `--completion-values KIND`. Each
/// script keeps the prompt rule: once a prompt word (or `--`) is on the line, it offers nothing.
enum ShellCompletion {
    /// The shells `--completions` writes a script for.
    enum Shell: String, CaseIterable {
        case bash
        case zsh
        case fish
    }

    /// What `--completion-values` lists, one a line.
    enum Values: String, CaseIterable {
        /// The profiles `--profile` accepts: the config's and the built-in ones.
        case profiles
        /// Stored conversations, most recently used first: the id, a tab and the title.
        case conversations
        /// The roles `--role` accepts: the name, a tab and what the role is.
        case roles
        /// The configured MCP servers `-T` and `--yes-tools` name.
        case toolServers = "tool-servers"
    }

    /// The completion script for `shell`.
    static func script(for shell: Shell) -> String {
        let flags = OptionCatalogue.entries.map(\.flag)
        switch shell {
        case .bash: return BashCompletion.script(flags)
        case .zsh: return ZshCompletion.script(flags)
        case .fish: return FishCompletion.script(flags)
        }
    }

    /// The command that lists `kind` (`--completion-values KIND`, its errors and input away), run
    /// with the program of the command line being completed.
    static func query(_ kind: String) -> String {
        "--completion-values \(kind) 2>/dev/null </dev/null"
    }

    /// The names of `flag`, short first: `-m`, `--model`.
    static func names(_ flag: CommandLineFlag) -> [String] {
        [flag.shortName, flag.longName].compactMap { $0 }
    }
}
