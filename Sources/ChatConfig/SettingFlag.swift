import ChatCatalogue

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

    /// The flag of a true-or-false setting, which takes no value (see `Setting.switchValue`);
    /// `long` replaces the name the key gives.
    static func `switch`(_ help: String, long: String? = nil) -> SettingFlag {
        SettingFlag(valueName: nil, help: help, short: nil, long: long, completion: .none)
    }

    /// The whole flag of the setting `key`.
    func resolved(key: String, kind: SettingKind, default defaultValue: SettingValue?) -> CommandLineFlag {
        // `top_p` → `top-p`, byte by byte (keys are ASCII).
        let named = String(decoding: key.utf8.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: "-") : $0 }, as: UTF8.self)
        switch kind {
        case .boolean:
            let negated = defaultValue == .boolean(true)
            return CommandLineFlag(
                long ?? (negated ? "no-" + named : named), short: short, value: nil, help: help, completion: .none,
                repeats: false, default: nil)
        case .choice(let words):
            return CommandLineFlag(
                long ?? named, short: short, value: valueName ?? "VALUE", help: help, completion: .words(words),
                repeats: false, default: nil)
        default:
            return CommandLineFlag(
                long ?? named, short: short, value: valueName ?? "VALUE", help: help, completion: completion,
                repeats: false, default: defaultValue)
        }
    }
}
