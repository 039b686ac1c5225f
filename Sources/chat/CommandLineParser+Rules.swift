import ChatDomain
import ChatPresentation

extension CommandLineParser {
    /// Applies the options `given` to `options`, in the catalogue's order, then the rules between
    /// options: settings only for a run that uses them, `--raw` against `--render`, `--code` and
    /// `-x` against `-i`, and which action of several is done.
    static func apply(_ given: Given, to options: inout CommandLineOptions) throws(CLIError) {
        let entries = OptionCatalogue.entries
        // Only a chat (and --models) uses the settings: --help, --version and the history's
        // actions do not check them. Of the actions asked for, the first in `Action.Kind`'s order
        // is done.
        var needsSettings = true
        var chosen: (kind: CommandLineOptions.Action.Kind, entry: Int)?
        for index in entries.indices where given.values[index] != nil {
            switch entries[index].effect {
            case .command(.toggle(let set)):
                set(&options)
            case .command(.action(let kind, _)), .command(.actionValue(let kind, _)):
                needsSettings =
                    needsSettings && [.models, .toolsList, .toolsLogin, .toolsLogout].contains(kind)
                if chosen.map({ kind < $0.kind }) ?? true { chosen = (kind, index) }
            case .command(.value), .setting:
                break
            }
        }
        if needsSettings { try applySettings(given, to: &options) }
        if options.codeOnly && options.interactive {
            throw .usage("--code prints one answer's code; it cannot be used with -i")
        }
        for index in entries.indices {
            guard case .command(.value(let read)) = entries[index].effect, let values = given.values[index] else {
                continue
            }
            for text in values { try read(&options, text) }
        }
        try executeRules(&options)
        try jsonRules(options, chosen?.kind)
        if options.schema != nil {
            guard chosen == nil else { throw .usage("--schema goes with a prompt or -i") }
            guard !options.execute, !options.codeOnly else {
                throw .usage("--schema asks for JSON; it does not go with -x or --code")
            }
        }
        guard let chosen else { return }
        // The chosen action's value is checked only now: `--help --completions tcsh` is help.
        switch entries[chosen.entry].effect {
        case .command(.action(_, let action)):
            try choose(action, given.rest, &options)
        case .command(.actionValue(_, let read)):
            try choose(try read(given.values[chosen.entry]?.last ?? ""), given.rest, &options)
        default:
            break
        }
    }

    /// Sets each setting whose flag was given (the last value of a repeated one), checked as its
    /// row says; `--raw` is `--render never`, and not both.
    private static func applySettings(_ given: Given, to options: inout CommandLineOptions) throws(CLIError) {
        var renderGiven = false
        for (index, entry) in OptionCatalogue.entries.enumerated() {
            guard case .setting(let setting) = entry.effect, let values = given.values[index] else { continue }
            try checked { () throws(SettingsError) in try options.overrides.set(setting, fromFlag: values.last) }
            renderGiven = renderGiven || setting.key == "render"
        }
        guard options.raw else { return }
        guard !renderGiven else { throw .usage("--raw is --render never; give one of them") }
        try checked { () throws(SettingsError) in try options.overrides.set("render", text: "never", flag: "--raw") }
    }

    /// A setting's check, its message a usage error.
    private static func checked(_ body: () throws(SettingsError) -> Void) throws(CLIError) {
        do throws(SettingsError) {
            try body()
        } catch {
            throw .usage(ErrorWording.line(for: error))
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

    /// `--json` is for a program: one answer, or a listing.
    private static func jsonRules(
        _ options: CommandLineOptions, _ action: CommandLineOptions.Action.Kind?
    ) throws(CLIError) {
        guard options.json else { return }
        switch action {
        case nil, .list, .search, .models, .listRoles, .toolsList, .stats, .help, .version, .completions:
            break
        case .show, .export, .delete, .toolsLogin, .toolsLogout:
            throw .usage("--json goes with a prompt, -x, --list, --search, --models or --list-roles")
        }
        if action == nil {
            if options.interactive { throw .usage("--json writes one answer's events; it does not go with -i") }
            if options.codeOnly { throw .usage("--json writes the whole answer's events; it does not go with --code") }
            if options.historyAppend {
                throw .usage("-x --json never runs the command; --history-append has none to add")
            }
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
        case .toolsList: try noWords(after: "--tools-list", options.prompt)
        case .toolsLogin: try noWords(after: "--tools-login SERVER", options.prompt)
        case .toolsLogout: try noWords(after: "--tools-logout SERVER", options.prompt)
        case .list: try noWords(after: "--list", options.prompt)
        case .stats: try noWords(after: "--stats", options.prompt)
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
