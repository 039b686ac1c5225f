/// One field of a server's form, as its schema describes it.
public struct ServerQuestionField: Sendable, Equatable {
    /// What the field takes.
    public enum Kind: Sendable, Equatable {
        /// Text, in `format` (`email`, `uri`, `date`, `date-time`) when one is given.
        case text(format: String?, minLength: Int?, maxLength: Int?)
        /// A number; `integer`: a whole one.
        case number(integer: Bool, minimum: Double?, maximum: Double?)
        case boolean
        /// One of these.
        case choice([ServerQuestionChoice])
        /// Any of these, between `minItems` and `maxItems` of them.
        case choices([ServerQuestionChoice], minItems: Int?, maxItems: Int?)
    }

    /// The name the answer gives its value under.
    public var name: String
    /// The field's title, if the server gave one.
    public var title: String?
    public var description: String?
    public var isRequired: Bool
    public var kind: Kind
    /// The value the server suggests.
    public var defaultValue: JSONValue?

    /// A field `name` of `kind`.
    public init(
        name: String, title: String? = nil, description: String? = nil, isRequired: Bool = false, kind: Kind,
        defaultValue: JSONValue? = nil
    ) {
        self.name = name
        self.title = title
        self.description = description
        self.isRequired = isRequired
        self.kind = kind
        self.defaultValue = defaultValue
    }
}
