import ChatConfig
import ChatDomain
import ChatPresentation

/// One of the command's own options (a mode or an action, not a setting): its flag, and what it
/// does to the `CommandLineOptions` when given. A setting's option is declared in its
/// `SettingsTable` row instead, with the same `CommandLineFlag`; `OptionCatalogue` holds both.
struct CommandOption: Sendable {
    /// What giving the option does.
    enum Effect: Sendable {
        /// A switch that sets a field.
        case toggle(@Sendable (inout CommandLineOptions) -> Void)
        /// A value, checked and stored typed (each one given, for a repeating option).
        case value(@Sendable (inout CommandLineOptions, String) throws(CLIError) -> Void)
        /// A switch that asks for an action (`--list`); of several, `Action.Kind`'s order decides.
        case action(CommandLineOptions.Action.Kind, CommandLineOptions.Action)
        /// A value that asks for an action (`--show ID`), checked only when that action is done.
        case actionValue(
            CommandLineOptions.Action.Kind, @Sendable (String) throws(CLIError) -> CommandLineOptions.Action)
    }

    let flag: CommandLineFlag
    let effect: Effect

    init(_ flag: CommandLineFlag, _ effect: Effect) {
        self.flag = flag
        self.effect = effect
    }

    // MARK: Reading values

    /// `text`, unless it is empty: then a usage error naming `name`.
    static func nonEmpty(_ text: String, _ name: String) throws(CLIError) -> String {
        guard !text.isEmpty else { throw .usage("\(name) needs a non-empty value") }
        return text
    }

    /// The case of `Word` that `text` names; else a usage error naming `name` and the words.
    static func word<Word: RawRepresentable & CaseIterable>(_ text: String, _ name: String) throws(CLIError) -> Word
    where Word.RawValue == String {
        guard let word = Word(rawValue: text) else {
            throw .usage("\(name) expects \(ErrorWording.either(Word.allCases.map(\.rawValue))), got \"\(text)\"")
        }
        return word
    }

    /// The response schema `text` gives (`--schema`, `--schema-multi`); else a usage error.
    static func schema(_ text: String, multi: Bool) throws(CLIError) -> ResponseSchema {
        do throws(SchemaProblem) {
            return try ResponseSchemaReader.schema(text, multi: multi)
        } catch {
            throw .usage(ErrorWording.line(for: error))
        }
    }
}
