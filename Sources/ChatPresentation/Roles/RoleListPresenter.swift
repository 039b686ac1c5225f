import ChatDomain

/// Shows the roles there are (`chat --list-roles`): one name a line for a program; for a person,
/// each name with what it sets and the start of its prompt.
public struct RoleListPresenter {
    private let output: any OutputSink
    private let style: TerminalStyle

    /// Writes to `output` in `style`; a table when `output` is a terminal.
    public init(output: any OutputSink, style: TerminalStyle) {
        self.output = output
        self.style = style
    }

    /// Lists `roles`, in the order given.
    public func show(_ roles: [PromptRole]) {
        guard output.isTerminal else {
            output.write(roles.map { $0.name + "\n" }.joined())
            return
        }
        let width = roles.map(\.name.count).max() ?? 0
        var text = ""
        for role in roles {
            let name = role.name + String(repeating: " ", count: width - role.name.count)
            text += style.bold(name) + "  " + Self.description(of: role) + "\n"
        }
        output.write(text)
    }

    /// What a role is, in one line: the start of its prompt, and what it sets.
    public static func description(of role: PromptRole) -> String {
        var words = role.prompt.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if words.count > 60 { words = String(words.prefix(59)) + "…" }
        var sets: [String] = []
        if !role.settings.model.isEmpty { sets.append("model \(role.settings.model)") }
        if let value = role.settings.temperature { sets.append("temperature \(Self.plain(value))") }
        if let value = role.settings.maxTokens { sets.append("max_tokens \(value)") }
        if let value = role.settings.topP { sets.append("top_p \(Self.plain(value))") }
        if role.isTemplate { sets.append("fills {{input}}") }
        return words + (sets.isEmpty ? "" : " (" + sets.joined(separator: ", ") + ")")
    }

    private static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
