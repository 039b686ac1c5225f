import ChatDomain

/// What a setting holds and which values it takes: how the config file's value is read and
/// checked, and how a flag's (or an environment variable's) text is.
package enum SettingKind: Sendable {
    /// Any string; with `nonEmptyFlag`, a flag may not give the empty string.
    case text(nonEmptyFlag: Bool = false)
    /// A number within `range`, from the config and from a flag alike.
    case number(ClosedRange<Double>)
    /// Seconds: within `range` in the config; any number above 0 from a flag.
    case seconds(ClosedRange<Double>)
    /// A whole number of at least `minimum`; a flag's is at most `flagMaximum` too, if given.
    case wholeNumber(minimum: Int, flagMaximum: Int? = nil)
    /// true or false.
    case boolean
    /// An object of strings, e.g. header names to values.
    case stringMap
    /// One of a few words.
    case choice([String])
    /// A list of names: a JSON list of strings in the config, `a,b` from a flag.
    case names

    /// A bound as people write it: `2`, not `2.0` (a flag's default in `--help`).
    package static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
