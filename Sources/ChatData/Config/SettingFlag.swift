/// A setting's command-line flag as its `SettingsTable` row declares it: only what the row does
/// not already say. The long name follows the key (`top_p` → `--top-p`; a true-or-false setting
/// that is true unless changed gets `--no-KEY`), the default joins the help (`(default 10)`), and
/// a choice completes to its words.
struct SettingFlag {
    var valueName: String?
    var help: String
    var short: Character?
    var long: String?
    var completion: CommandLineFlag.Completion

    /// A flag that takes a value, called `valueName` in `--help`; `long` replaces the name the key gives.
    static func value(
        _ valueName: String, _ help: String, short: Character? = nil, long: String? = nil,
        completion: CommandLineFlag.Completion = .none
    ) -> SettingFlag {
        SettingFlag(valueName: valueName, help: help, short: short, long: long, completion: completion)
    }

    /// The flag of a true-or-false setting, which takes no value (see `Setting.switchValue`).
    static func `switch`(_ help: String) -> SettingFlag {
        SettingFlag(valueName: nil, help: help, short: nil, long: nil, completion: .none)
    }

    /// The whole flag of the setting `key`.
    func resolved(key: String, kind: SettingKind, default defaultValue: SettingValue?) -> CommandLineFlag {
        let named = key.split(separator: "_").joined(separator: "-")
        guard case .boolean = kind else {
            var help = help
            var completion = completion
            switch kind {
            case .choice(let words):
                completion = .words(words)
            default:
                if let shown = defaultValue.flatMap(Self.shown) { help += " (default \(shown))" }
            }
            return CommandLineFlag(
                long ?? named, short: short, value: valueName ?? "VALUE", help: help, completion: completion)
        }
        let negated = defaultValue == .boolean(true)
        return CommandLineFlag(long ?? (negated ? "no-" : "") + named, short: short, help: help)
    }

    /// A default as `--help` shows it: `10`, not `10.0`.
    private static func shown(_ value: SettingValue) -> String? {
        switch value {
        case .text(let text): return text
        case .number(let number): return SettingKind.plain(number)
        case .wholeNumber(let number): return String(number)
        case .boolean, .stringMap: return nil
        }
    }
}
