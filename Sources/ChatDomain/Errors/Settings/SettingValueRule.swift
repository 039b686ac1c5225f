/// The values a setting takes from a flag's or an environment variable's text.
public enum SettingValueRule: Sendable, Equatable {
    /// Any text but the empty one.
    case nonEmpty
    /// A number in the range.
    case number(ClosedRange<Double>)
    /// A number of seconds above 0.
    case secondsAboveZero
    /// A whole number in the range.
    case wholeNumber(ClosedRange<Int>)
    /// A whole number of at least this.
    case wholeNumberFrom(Int)
    /// `true` or `false`.
    case trueOrFalse
    /// One of these words.
    case oneOf([String])
    /// None: the setting is set only in the config file.
    case configFileOnly
}
