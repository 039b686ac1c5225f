import ChatDomain

/// A type a decided setting can be stored as in `ResolvedSettings` (or the `ChatSettings` in it).
protocol SettingTarget: SendableMetatype {
    /// The value as this type; nil when it is of another kind.
    init?(setting: SettingValue)
}

extension String: SettingTarget {
    init?(setting: SettingValue) {
        guard case .text(let value) = setting else { return nil }
        self = value
    }
}

extension Double: SettingTarget {
    init?(setting: SettingValue) {
        guard case .number(let value) = setting else { return nil }
        self = value
    }
}

extension Int: SettingTarget {
    init?(setting: SettingValue) {
        guard case .wholeNumber(let value) = setting else { return nil }
        self = value
    }
}

extension Bool: SettingTarget {
    init?(setting: SettingValue) {
        guard case .boolean(let value) = setting else { return nil }
        self = value
    }
}

extension [String]: SettingTarget {
    init?(setting: SettingValue) {
        guard case .names(let value) = setting else { return nil }
        self = value
    }
}

extension SamplingValue: SettingTarget {
    init?(setting: SettingValue) {
        switch setting {
        case .number(let value): self = .number(value)
        case .wholeNumber(let value): self = .wholeNumber(value)
        case .text(let word):
            guard let level = ReasoningEffort(rawValue: word) else { return nil }
            self = .effort(level)
        default: return nil
        }
    }
}

extension Optional: SettingTarget where Wrapped: SettingTarget {
    init?(setting: SettingValue) {
        guard let value = Wrapped(setting: setting) else { return nil }
        self = .some(value)
    }
}
