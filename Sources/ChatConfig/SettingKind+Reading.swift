import ChatCatalogue
import ChatDomain

extension SettingKind {
    /// The value of `key` in a config object, checked; nil when the key is absent.
    package func read(_ key: String, from reader: ConfigReader) throws(ConfigIssue) -> SettingValue? {
        switch self {
        case .text: return try reader.string(key).map(SettingValue.text)
        case .number(let range), .seconds(let range):
            return try reader.number(key, range: range).map(SettingValue.number)
        case .wholeNumber(let minimum, _):
            return try reader.integer(key, minimum: minimum).map(SettingValue.wholeNumber)
        case .boolean: return try reader.bool(key).map(SettingValue.boolean)
        case .stringMap: return try reader.stringMap(key).map(SettingValue.stringMap)
        case .choice(let words): return try reader.choice(key, among: words).map(SettingValue.text)
        case .names: return try reader.strings(key).map(SettingValue.names)
        }
    }

    /// The value a flag's or environment variable's text gives, checked; `name` (`--temperature`,
    /// `OPENAI_BASE_URL`) names it in the error.
    func value(fromText text: String, name: String) throws(SettingsError) -> SettingValue {
        func bad(_ rule: SettingValueRule) -> SettingsError { .badValue(name: name, text: text, expected: rule) }
        switch self {
        case .text(let nonEmptyFlag):
            guard !(nonEmptyFlag && text.isEmpty) else { throw bad(.nonEmpty) }
            return .text(text)
        case .number(let range):
            guard let number = Double(text), range.contains(number) else { throw bad(.number(range)) }
            return .number(number)
        case .seconds:
            guard let seconds = Double(text), seconds > 0, seconds.isFinite else { throw bad(.secondsAboveZero) }
            return .number(seconds)
        case .wholeNumber(let minimum, let maximum?):
            guard let number = Int(text), (minimum...maximum).contains(number) else {
                throw bad(.wholeNumber(minimum...maximum))
            }
            return .wholeNumber(number)
        case .wholeNumber(let minimum, nil):
            guard let number = Int(text), number >= minimum else { throw bad(.wholeNumberFrom(minimum)) }
            return .wholeNumber(number)
        case .boolean:
            guard let value = Bool(text) else { throw bad(.trueOrFalse) }
            return .boolean(value)
        case .stringMap:
            throw bad(.configFileOnly)
        case .choice(let words):
            guard words.contains(text) else { throw bad(.oneOf(words)) }
            return .text(text)
        case .names:
            let names = text.split(separator: ",").map { String($0).trimmingASCIIWhitespace() }.filter { !$0.isEmpty }
            guard !names.isEmpty else { throw bad(.nonEmpty) }
            return .names(names)
        }
    }
}
