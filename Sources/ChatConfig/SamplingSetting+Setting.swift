import ChatCatalogue
import ChatDomain

extension SamplingSetting {
    /// Its row of `SettingsTable`, with its flag: the decided value goes to the settings'
    /// sampling values.
    var setting: Setting {
        let parameter = parameter
        return Setting(key, kind, flag: .value(valueName, help), about: help) { value, settings in
            guard let value = SamplingValue(setting: value) else { return false }
            settings.chat.sampling[parameter] = value
            return true
        }
    }
}
