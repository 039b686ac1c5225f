import ChatConfig
import ChatDomain

/// Every option of `chat`, each declared once: the settings' flags from their `SettingsTable`
/// rows, then the command's own from `CommandOptionTable`. The parser, `--help`, the man page and
/// the completion scripts all read this list, so none of them holds a list of its own.
enum OptionCatalogue {
    /// One option: how it is written, and what it does.
    struct Entry: Sendable {
        enum Effect: Sendable {
            /// It sets a setting, checked as its row says.
            case setting(Setting)
            /// One of the command's own options.
            case command(CommandOption.Effect)
        }

        let flag: CommandLineFlag
        let effect: Effect
    }

    /// Every option, in the order `--help` lists them.
    static let entries: [Entry] =
        SettingsTable.all.compactMap { setting in setting.flag.map { Entry(flag: $0, effect: .setting(setting)) } }
        + CommandOptionTable.all.map { Entry(flag: $0.flag, effect: .command($0.effect)) }

    /// The index in `entries` of the option called `name` (`--top-p`, `-m`), if there is one. (A
    /// look along the list: a command line names a few options, and building a dictionary of
    /// every name would cost more than the looks.)
    static func index(of name: String) -> Int? {
        entries.firstIndex { $0.flag.longName == name || $0.flag.shortName == name }
    }

    /// The known option within a typo or two of `name` (one for a short name, so `--nope` is not
    /// taken for `--code`); of several, the one that shares the longest start with it.
    static func suggestion(for name: String) -> String? {
        let allowed = max(1, min(2, (name.count - 2) / 3))
        var best: (name: String, distance: Int, shared: Int)?
        for entry in entries {
            let long = entry.flag.longName
            let distance = NearestName.distance(long, name)
            guard distance <= allowed else { continue }
            let shared = zip(long, name).prefix { $0 == $1 }.count
            if let current = best, (current.distance, -current.shared, current.name) <= (distance, -shared, long) {
                continue
            }
            best = (long, distance, shared)
        }
        return best?.name
    }
}
