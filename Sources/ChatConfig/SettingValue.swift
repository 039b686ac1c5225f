/// A setting's value as a config file, the environment or a flag gave it, already checked
/// against its `SettingKind`.
package enum SettingValue: Sendable, Equatable {
    case text(String)
    case number(Double)
    case wholeNumber(Int)
    case boolean(Bool)
    case stringMap([String: String])
    /// A list of names, e.g. the MCP servers whose tools a run uses.
    case names([String])

    /// The text, if this is text.
    var text: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The truth value, if this is one.
    var boolean: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// The map, if this is an object of strings.
    var stringMap: [String: String]? {
        if case .stringMap(let value) = self { return value }
        return nil
    }
}
