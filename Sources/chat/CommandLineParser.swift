import ArgumentParser
import ChatData
import ChatDomain
import ChatPresentation

/// Reads the command line: options first, then the prompt. From the first prompt word on every
/// word is prompt text, even one that starts with `-` (`chat what is -5 squared`); a leading
/// `--` ends the options and is not prompt text. Before the prompt, an unknown option is an error
/// with a suggestion, and an API key is refused. The flags are `ChatArguments`; `FlagIndex` reads
/// the common command line, ArgumentParser (through `ArgumentShield`) every other one, and this
/// type keeps the rules above and the messages.
struct CommandLineParser {
    /// Whether the common command line is read by `FlagIndex` (false: always by ArgumentParser,
    /// which the tests compare it with).
    var useIndex = true

    func parse(_ arguments: [String]) throws(CLIError) -> CommandLineOptions {
        var options = CommandLineOptions()
        if let action = try Self.hiddenRequest(arguments) {
            options.action = action
            return options
        }
        // No option before the first word, so none at all: ArgumentParser (about a millisecond of
        // reflection at start-up) has nothing to read.
        guard let first = arguments.first, ArgumentShield.isOption(first) else {
            options.prompt = try prompt(arguments)
            return options
        }
        let given: GivenFlags
        if useIndex, let read = FlagIndex.read(arguments) {
            given = read
        } else {
            let shield = ArgumentShield(arguments)
            do {
                given = try ChatArguments.parse(shield.words).given(original: shield.original)
            } catch {
                throw .usage(Self.sentence(shield.restoring(ChatArguments.message(for: error))))
            }
        }

        options.prompt = try prompt(given.prompt)
        // Only a chat uses the settings (`--version`, `--help` and the history commands do not).
        let needsSettings =
            !(given.has("help") || given.has("version") || given.has("list") || given.has("listRoles"))
            && ["search", "show", "export", "delete", "completions"].allSatisfy { given[$0] == nil }
        if needsSettings {
            try given.applySettings(to: &options.overrides)
            if given.has("raw") {
                guard given["render"] == nil else { throw .usage("--raw is --render never; give one of them") }
                do throws(SettingsError) {
                    try options.overrides.set("render", text: "never", flag: "--raw")
                } catch {
                    throw .usage(ErrorWording.line(for: error))
                }
            }
        }
        options.codeOnly = given.has("code")
        if given.has("code") && given.has("interactive") {
            throw .usage("--code prints one answer's code; it cannot be used with -i")
        }
        let value = { (property: String, name: String) throws(CLIError) -> String? in
            try given[property].map { text throws(CLIError) in try Self.nonEmpty(text, name) }
        }
        options.overrides.profile = try value("profile", "--profile")
        options.overrides.configPath = try value("config", "--config")
        options.overrides.role = try value("role", "--role")
        options.execute = given.has("execute")
        options.historyAppend = given.has("historyAppend")
        if given.has("execute") {
            guard !given.has("interactive") else { throw .usage("-x asks for one command; it does not go with -i") }
            guard !given.has("code") else {
                throw .usage("-x shows the command alone already; it does not go with --code")
            }
            // The shell role asks for one command for this shell and system.
            if options.overrides.role == nil { options.overrides.role = "shell" }
        } else if given.has("historyAppend") {
            throw .usage("--history-append goes with -x")
        }
        options.conversationID = try value("conversation", "--conversation")
        options.verbose = given.has("verbose")
        options.interactive = given.has("interactive")
        options.continueLast = given.has("continueLast")
        options.listAll = given.has("all")
        options.files = try given.all("file").map { path throws(CLIError) in try Self.nonEmpty(path, "--file") }
        if let text = given["limit"] {
            guard let limit = Int(text), limit >= 0 else {
                throw .usage("-n expects a whole number (0 for all), got \"\(text)\"")
            }
            options.listLimit = limit
        }
        if let format = given["format"] {
            guard let exportFormat = CommandLineOptions.ExportFormat(rawValue: format) else {
                throw .usage("--format expects markdown or json, got \"\(format)\"")
            }
            options.exportFormat = exportFormat
        }
        if given.has("help") {
            options.action = .help
        } else if given.has("version") {
            options.action = .version
        } else if let shell = given["completions"] {
            guard ShellCompletion.shells.contains(shell) else {
                throw .usage("--completions expects bash, zsh or fish, got \"\(shell)\"")
            }
            options.action = .completions(shell)
        } else if given.has("listRoles") {
            try Self.noWords(after: "--list-roles", options.prompt)
            options.action = .listRoles
        } else if given.has("models") {
            try Self.noWords(after: "--models", options.prompt)
            options.action = .models
        } else if given.has("list") {
            try Self.noWords(after: "--list", options.prompt)
            options.action = .list
        } else if let text = try value("search", "--search") {
            // Every word after --search is the text searched for, not a prompt.
            options.action = .search([text, options.prompt].compactMap { $0 }.joined(separator: " "))
            options.prompt = nil
        } else if let id = try value("show", "--show") {
            try Self.noWords(after: "--show ID", options.prompt)
            options.action = .show(id)
        } else if let id = try value("export", "--export") {
            try Self.noWords(after: "--export ID", options.prompt)
            options.action = .export(id)
        } else if let id = try value("delete", "--delete") {
            // Every word after --delete is an id.
            let more = given.prompt.filter { $0 != "--" }
            options.action = .delete([id] + more)
            options.prompt = nil
        }
        return options
    }

    /// A usage error when words follow an option that takes none (or no more).
    private static func noWords(after option: String, _ words: String?) throws(CLIError) {
        guard let words else { return }
        let first = words.split(separator: " ").first.map(String.init) ?? words
        throw .usage("unexpected \"\(first)\" after \(option)")
    }

    /// The hidden requests, each a whole command line: `--completion-values KIND`, which the
    /// completion scripts run to list profiles or stored conversations, and `--man-page`, which
    /// `scripts/install` runs. They are not declared in `ChatArguments`: ArgumentParser reflects
    /// every declaration at every start that has an option (measured: about 0.13 M instructions
    /// each, 0.5% of `chat --version`), and these are for programs, not people.
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
        default:
            return nil
        }
    }

    /// `chat --help`: generated from the declarations of `ChatArguments`.
    static var help: String {
        ChatArguments.helpMessage(columns: 100)
    }

    /// The prompt from the words ArgumentParser left, the first of which ended the options: a
    /// `--` (dropped), an unknown option (an error), or the first prompt word.
    private func prompt(_ words: [String]) throws(CLIError) -> String? {
        guard let first = words.first else { return nil }
        if first == "--" {
            return words.count > 1 ? words.dropFirst().joined(separator: " ") : nil
        }
        guard Self.isOption(first) else { return words.joined(separator: " ") }
        // The option's name only, never what follows it: `--key=sk-…` or `-ksk-…` may hold a secret.
        var name = first
        if let equals = name.firstIndex(of: "=") { name = String(name[..<equals]) }
        if !name.hasPrefix("--") && name.hasPrefix("-k") { name = "-k" }
        switch name {
        case "--api-key", "-k", "--key":
            throw .usage(
                "an API key is never taken as a flag (ps would show it): set OPENAI_API_KEY, "
                    + "or api_key_env, api_key_file or api_key_command in the config")
        default:
            throw .usage("unknown option \(name)\(Self.suggestion(for: name))")
        }
    }

    /// A word that starts with `-` and is not a negative number or a lone dash.
    private static func isOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        let second = word[word.index(after: word.startIndex)]
        return !(second.isNumber || second == ".")
    }

    private static func nonEmpty(_ value: String, _ name: String) throws(CLIError) -> String {
        guard !value.isEmpty else { throw .usage("\(name) needs a non-empty value") }
        return value
    }

    /// ArgumentParser's message as one of ours: no capital, no full stop.
    private static func sentence(_ message: String) -> String {
        var text = message.split(separator: "\n").first.map(String.init) ?? message
        if text.hasSuffix(".") { text.removeLast() }
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// A known option within a typo or two of `name` (one for a short name, so `--nope` is not
    /// taken for `--code`); of several, the one that shares the longest start with it.
    private static func suggestion(for name: String) -> String {
        let allowed = max(1, min(2, (name.count - 2) / 3))
        let ranked = knownLongNames.map {
            (name: $0, distance: NearestName.distance($0, name), shared: sharedStart($0, name))
        }
        let close = ranked.filter { $0.distance <= allowed }.min {
            ($0.distance, -$0.shared, $0.name) < ($1.distance, -$1.shared, $1.name)
        }
        if let close { return "; did you mean \(close.name)?" }
        return "; see chat --help"
    }

    private static func sharedStart(_ a: String, _ b: String) -> Int {
        zip(a, b).prefix { $0 == $1 }.count
    }

    /// Every long option, as the generated help lists them.
    private static var knownLongNames: Set<String> {
        var names: Set<String> = []
        for word in ChatArguments.helpMessage(columns: 1000).split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let name = word.prefix { $0 == "-" || $0.isLetter || $0.isNumber }
            if name.hasPrefix("--") && name.count > 2 { names.insert(String(name)) }
        }
        return names
    }
}
