/// Reads the command line into `CommandLineOptions`, over the options of `OptionCatalogue`.
///
/// Options come first, then the prompt. From the first prompt word on, every word is prompt text,
/// even one that starts with `-` (`chat what is -5 squared`); a leading `--` ends the options and
/// is not prompt text; a negative number and a lone `-` are prompt words. Before the prompt, an
/// unknown option is an error with a suggestion, and an API key is refused. An option takes the
/// next word as its value whatever it is (`-s --`), or the text after `=` (`--system=`); the last
/// of a repeated option wins, and a repeated switch is no error.
struct CommandLineParser {
    /// The options the line gave, by their index in `OptionCatalogue.entries`: each value given
    /// (none for a switch).
    struct Given {
        var values: [[String]?] = Array(repeating: nil, count: OptionCatalogue.entries.count)
        /// The word that ended the options (`--` or the first prompt word) and every word after it.
        var rest: [String] = []
    }

    func parse(_ arguments: [String]) throws(CLIError) -> CommandLineOptions {
        var options = CommandLineOptions()
        if let action = try Self.hiddenRequest(arguments) {
            options.action = action
            return options
        }
        let given = try Self.scan(arguments)
        options.prompt = Self.prompt(given.rest)
        try Self.apply(given, to: &options)
        return options
    }

    /// The options before the prompt, each found in the catalogue, with their values.
    private static func scan(_ arguments: [String]) throws(CLIError) -> Given {
        var given = Given()
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            guard word != "--", isOption(word) else {
                given.rest = Array(arguments[index...])
                break
            }
            var name = word
            var attached: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                attached = String(word[word.index(after: equals)...])
            }
            guard let entry = OptionCatalogue.index(of: name) else { throw unknownOption(word) }
            let flag = OptionCatalogue.entries[entry].flag
            guard let valueName = flag.valueName else {
                if let attached {
                    throw .usage(
                        "the option '\(flag.longName)' does not take any value, but '\(attached)' was specified")
                }
                given.values[entry] = []
                index += 1
                continue
            }
            let value: String
            if let attached {
                value = attached
            } else {
                guard index + 1 < arguments.count else {
                    let names = [flag.shortName, flag.longName].compactMap { $0 }
                    throw .usage(
                        "missing value for '\(name == flag.shortName ? names[0] : flag.longName) <\(valueName)>'")
                }
                index += 1
                value = arguments[index]
            }
            given.values[entry] = (flag.repeats ? given.values[entry] ?? [] : []) + [value]
            index += 1
        }
        return given
    }

    /// The prompt: the words from the first prompt word on, joined; a leading `--` is dropped.
    private static func prompt(_ rest: [String]) -> String? {
        var words = rest
        if words.first == "--" { words.removeFirst() }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// A word that starts with `-` and is not a negative number or a lone dash.
    static func isOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        let second = word[word.index(after: word.startIndex)]
        return !(second.isNumber || second == ".")
    }

    /// The error for an option the catalogue does not hold: an API key is refused (never taken
    /// from a flag), anything else named with a suggestion. Only the option's name is shown, never
    /// what follows it: `--key=sk-…` or `-ksk-…` may hold a secret.
    private static func unknownOption(_ word: String) -> CLIError {
        var name = word
        if let equals = name.firstIndex(of: "=") { name = String(name[..<equals]) }
        if !name.hasPrefix("--") && name.hasPrefix("-k") { name = "-k" }
        switch name {
        case "--api-key", "-k", "--key":
            return .usage(
                "an API key is never taken as a flag (ps would show it): set OPENAI_API_KEY, "
                    + "or api_key_env, api_key_file or api_key_command in the config")
        default:
            let suggestion =
                OptionCatalogue.suggestion(for: name).map { "; did you mean \($0)?" } ?? "; see chat --help"
            return .usage("unknown option \(name)\(suggestion)")
        }
    }

    /// The hidden requests, each a whole command line and no option: `--completion-values KIND`,
    /// which the completion scripts run to list profiles, roles or stored conversations;
    /// `--man-page`, which `scripts/install` runs; and `--local-fallback ARGUMENTS…`, which
    /// `scripts/chat` runs. They are for programs, not people, so `--help` leaves them out.
    private static func hiddenRequest(_ arguments: [String]) throws(CLIError) -> CommandLineOptions.Action? {
        switch arguments.first {
        case "--man-page":
            guard arguments.count == 1 else { throw .usage("--man-page takes no other argument") }
            return .manPage
        case "--completion-values":
            let kinds = ShellCompletion.Values.allCases.map(\.rawValue)
            guard arguments.count == 2, let values = ShellCompletion.Values(rawValue: arguments[1]) else {
                throw .usage("--completion-values expects one of \(kinds.joined(separator: ", ")) and nothing more")
            }
            return .completionValues(values)
        case "--local-fallback":
            return .localFallback(Array(arguments.dropFirst()))
        case "--reference":
            let kinds = DocsReference.Kind.allCases.map(\.rawValue)
            guard arguments.count == 2, let kind = DocsReference.Kind(rawValue: arguments[1]) else {
                throw .usage("--reference expects one of \(kinds.joined(separator: ", ")) and nothing more")
            }
            return .reference(kind)
        default:
            return nil
        }
    }
}
