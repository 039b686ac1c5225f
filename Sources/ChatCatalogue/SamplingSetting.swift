import ChatDomain
import ChatJSON

/// One sampling parameter as chat knows it, declared once in `SamplingTable`: its config key (a
/// settings flag is named after it: `max_tokens`, `--max-tokens`), which values it takes, its
/// name in the request body and in stored conversations (the history's `settings` column and
/// `/save` files), and its help.
package struct SamplingSetting: Sendable {
    /// The parameter it sets.
    package let parameter: SamplingParameter
    /// The config key, e.g. `top_p`; a role may set it too.
    package let key: String
    /// What it holds and which values it takes: a number in a range, or a whole number.
    package let kind: SettingKind
    /// Its name in the request body.
    package let wireName: String
    /// Its name in a stored conversation.
    package let storedName: String
    /// The flag's help, and the name of its value in the help (`N`).
    package let help: String
    package let valueName: String

    /// A parameter whose wire and stored names are its key unless given.
    init(
        _ parameter: SamplingParameter, _ key: String, _ kind: SettingKind, wireName: String? = nil,
        storedName: String? = nil, help: String, valueName: String = "N"
    ) {
        self.parameter = parameter
        self.key = key
        self.kind = kind
        self.wireName = wireName ?? key
        self.storedName = storedName ?? key
        self.help = help
        self.valueName = valueName
    }

    /// The value a JSON value holds for it, of its kind; nil when it holds another type (a
    /// number that is not whole for a whole-number parameter).
    func value(_ json: JSONValue) -> SamplingValue? {
        switch kind {
        case .wholeNumber: return json.wholeNumber.map(SamplingValue.wholeNumber)
        case .choice: return json.string.flatMap(ReasoningEffort.init(rawValue:)).map(SamplingValue.effort)
        default: return json.number.map(SamplingValue.number)
        }
    }

    /// Its field in a JSON object (a request body or stored settings): named `name`, in the
    /// sampling values `get` and `set` reach, read as its kind.
    package func field<Root>(
        _ name: String, _ get: @escaping @Sendable (Root) -> SamplingValues,
        _ set: @escaping @Sendable (inout Root, SamplingValues) -> Void
    ) -> JSONField<Root> {
        let parameter = parameter
        return JSONField(
            name, get: { get($0)[parameter] },
            set: { root, value in
                var values = get(root)
                values[parameter] = value
                set(&root, values)
            }, read: value,
            write: { value, json in
                switch value {
                case .number(let number): return json.double(number)
                case .wholeNumber(let number):
                    json.int(number)
                    return true
                case .effort(let level):
                    json.string(level.rawValue)
                    return true
                }
            })
    }
}
