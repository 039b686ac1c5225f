/// The REPL's commands. Dispatch, /help and Tab completion all come from this one list.
struct SlashCommandRegistry: Sendable {
    /// In /help's order.
    let commands: [any SlashCommand]

    /// Every command chat has.
    static let standard = SlashCommandRegistry(commands: [
        HelpCommand(), ExitCommand(), ClearCommand(), ModelCommand(), ModelsCommand(), SystemCommand(),
        RoleCommand(), SchemaCommand(), FileCommand(), FilesCommand(), HistoryCommand(), RetryCommand(),
        AnswersCommand(),
        UndoCommand(), EditCommand(), ForkCommand(), SaveCommand(), LoadCommand(), UsageCommand(), CompactCommand(),
        ConversationsCommand(), ResumeCommand(), TitleCommand(), CopyCommand(), ToolsCommand(), PromptsCommand(),
        PromptCommand(), ResourcesCommand(), ResourceCommand(), ReasoningCommand(), WebCommand(),
    ])

    /// The command called `name` (any case), by one of its names or aliases.
    func command(named name: String) -> (any SlashCommand)? {
        let name = name.lowercased()
        return commands.first { $0.names.contains(name) || $0.aliases.contains(name) }
    }

    /// Every name Tab offers, with its slash.
    var completionNames: [String] {
        commands.flatMap(\.names).map { "/" + $0 }
    }

    /// What Tab offers for `line`, the text before the cursor: command names while the first
    /// word is typed, then what that command offers for its argument.
    func completions(for line: String, in context: CompletionContext) -> [String] {
        guard line.hasPrefix("/") else { return [] }
        guard let space = line.firstIndex(where: \.isWhitespace) else {
            return completionNames.filter { $0.hasPrefix(line) }
        }
        guard let command = command(named: String(line.dropFirst().prefix { !$0.isWhitespace })) else { return [] }
        let argument = line[space...].drop { $0.isWhitespace }
        return command.completions(for: String(argument), in: context)
    }

    /// The text of /help.
    var help: String {
        var text = "Commands:\n"
        for command in commands {
            text += "  " + command.usage.padding(to: 16) + command.summary + "\n"
        }
        text += """
            Keys: Up/Down recall earlier lines, Tab completes a command and its argument (a
            model, a path, a role, a conversation), Ctrl-C stops an answer (or discards the
            line), Ctrl-D leaves, as does a line that is exit or quit. A line \"\"\" starts and
            ends a multi-line message (to send exit or quit alone, put it in one); pasted text
            arrives as one message. Begin a message with // to send a line that starts with /.

            """
        return text
    }
}

extension String {
    fileprivate func padding(to width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
