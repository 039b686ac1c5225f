import ChatData
import ChatDomain
import ChatPresentation

/// The flags one command line gave, by the name of their property in `ChatArguments`, with
/// their values as typed; and the words from the first prompt word on.
struct GivenFlags: Equatable {
    /// The options given, with their values.
    var values: [String: String] = [:]
    /// The options that may be given again, with every value in order.
    var lists: [String: [String]] = [:]
    /// The `Bool` flags given.
    var flags: Set<String> = []
    /// The first word that ended the options (`--`, an unknown option, or the first prompt word)
    /// and every word after it.
    var prompt: [String] = []

    subscript(_ property: String) -> String? { values[property] }

    func has(_ property: String) -> Bool { flags.contains(property) }

    /// Every value of a repeatable option, in order (none when it was not given).
    func all(_ property: String) -> [String] { lists[property] ?? [] }

    /// Every settings flag given, set into `overrides` and checked by the settings table, in the
    /// order of the declarations: an option's text, a flag's true (false for a `noX` flag).
    func applySettings(to overrides: inout SettingOverrides) throws(CLIError) {
        for entry in FlagIndex.entries {
            guard let binding = entry.setting else { continue }
            do throws(SettingsError) {
                if entry.takesValue {
                    guard let text = values[entry.property] else { continue }
                    try overrides.set(binding.key, text: text, flag: binding.flag)
                } else {
                    guard flags.contains(entry.property) else { continue }
                    try overrides.set(binding.key, binding.value, flag: binding.flag)
                }
            } catch {
                throw .usage(ErrorWording.line(for: error))
            }
        }
    }
}
