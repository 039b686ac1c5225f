import ChatData

extension CommandLineParser {
    /// Applies the options `given` to `options`, in the catalogue's order, then the rules between
    /// options: settings only for a run that uses them, `--raw` against `--render`, `--code` and
    /// `-x` against `-i`, and which action of several is done.
    static func apply(_ given: Given, to options: inout CommandLineOptions) throws(CLIError) {
        var settings: [(Setting, String?)] = []
        var commands: [(CommandOption.Effect, [String])] = []
        // Only a chat (and --models) uses the settings: --help, --version and the history's
        // actions do not check them.
        var needsSettings = true
        for (entry, values) in zip(OptionCatalogue.entries, given.values) {
            guard let values else { continue }
            switch entry.effect {
            case .setting(let setting):
                settings.append((setting, values.last))
            case .command(let effect):
                switch effect {
                case .toggle(let set): set(&options)
                case .action(let kind, _): needsSettings = needsSettings && kind == .models
                case .actionValue: needsSettings = false
                case .value: break
                }
                commands.append((effect, values))
            }
        }
        if needsSettings {
            for (setting, text) in settings {
                try checked { () throws(DataError) in try options.overrides.set(setting, fromFlag: text) }
            }
            if options.raw {
                guard !settings.contains(where: { $0.0.key == "render" }) else {
                    throw .usage("--raw is --render never; give one of them")
                }
                try checked { () throws(DataError) in try options.overrides.set("render", text: "never", flag: "--raw")
                }
            }
        }
        if options.codeOnly && options.interactive {
            throw .usage("--code prints one answer's code; it cannot be used with -i")
        }
        // Of the actions asked for, the first in `Action.Kind`'s order is done, its value checked.
        var chosen: (kind: CommandLineOptions.Action.Kind, make: () throws(CLIError) -> CommandLineOptions.Action)?
        for (effect, values) in commands {
            switch effect {
            case .toggle:
                break
            case .value(let read):
                for text in values { try read(&options, text) }
            case .action(let kind, let action):
                if chosen.map({ kind < $0.kind }) ?? true { chosen = (kind, { () throws(CLIError) in action }) }
            case .actionValue(let kind, let read):
                let text = values.last ?? ""
                if chosen.map({ kind < $0.kind }) ?? true { chosen = (kind, { () throws(CLIError) in try read(text) }) }
            }
        }
        try executeRules(&options)
        if let chosen { try choose(try chosen.make(), given.rest, &options) }
    }

    /// A setting's check, its message a usage error.
    private static func checked(_ body: () throws(DataError) -> Void) throws(CLIError) {
        do throws(DataError) {
            try body()
        } catch {
            throw .usage(error.description)
        }
    }

    /// `-x` goes alone; `--history-append` only with it.
    private static func executeRules(_ options: inout CommandLineOptions) throws(CLIError) {
        if options.execute {
            guard !options.interactive else { throw .usage("-x asks for one command; it does not go with -i") }
            guard !options.codeOnly else {
                throw .usage("-x shows the command alone already; it does not go with --code")
            }
            // The shell role asks for one command for this shell and system.
            if options.overrides.role == nil { options.overrides.role = "shell" }
        } else if options.historyAppend {
            throw .usage("--history-append goes with -x")
        }
    }

    /// Sets `action`, with the words after the options where it takes them: every word after
    /// `--search` is the text searched for, every word after `--delete` another id; the others
    /// take none.
    private static func choose(
        _ action: CommandLineOptions.Action, _ rest: [String], _ options: inout CommandLineOptions
    ) throws(CLIError) {
        switch action {
        case .listRoles: try noWords(after: "--list-roles", options.prompt)
        case .models: try noWords(after: "--models", options.prompt)
        case .list: try noWords(after: "--list", options.prompt)
        case .show: try noWords(after: "--show ID", options.prompt)
        case .export: try noWords(after: "--export ID", options.prompt)
        case .search(let text):
            options.action = .search([text, options.prompt].compactMap { $0 }.joined(separator: " "))
            options.prompt = nil
            return
        case .delete(let ids):
            options.action = .delete(ids + rest.filter { $0 != "--" })
            options.prompt = nil
            return
        default: break
        }
        options.action = action
    }

    /// A usage error when words follow an option that takes none (or no more).
    private static func noWords(after option: String, _ words: String?) throws(CLIError) {
        guard let words else { return }
        let first = words.split(separator: " ").first.map(String.init) ?? words
        throw .usage("unexpected \"\(first)\" after \(option)")
    }
}
