import ChatDomain

/// Shows the roles there are (`chat --list-roles`): one name a line for a program; for a person,
/// each name with what it sets and the start of its prompt.
public struct RoleListPresenter {
    private let output: any OutputSink
    private let style: TerminalStyle
    private let samplingKeys: [SamplingParameter: String]

    /// Writes to `output` in `style`; a table when `output` is a terminal. `samplingKeys` names
    /// each sampling parameter as the config does (`max_tokens`).
    public init(output: any OutputSink, style: TerminalStyle, samplingKeys: [SamplingParameter: String]) {
        self.output = output
        self.style = style
        self.samplingKeys = samplingKeys
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
            text += style.bold(name) + "  " + Self.description(of: role, samplingKeys: samplingKeys) + "\n"
        }
        output.write(text)
    }

    /// What a role is, in one line: the start of its prompt, and what it sets (each sampling
    /// parameter named as `samplingKeys` names it).
    public static func description(of role: PromptRole, samplingKeys: [SamplingParameter: String]) -> String {
        var words = role.prompt.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        if words.count > 60 { words = String(words.prefix(59)) + "…" }
        var sets: [String] = []
        if !role.settings.model.isEmpty { sets.append("model \(role.settings.model)") }
        for parameter in SamplingParameter.allCases {
            guard let value = role.settings.sampling[parameter] else { continue }
            sets.append("\(samplingKeys[parameter] ?? "\(parameter)") \(Self.plain(value))")
        }
        if role.isTemplate { sets.append("fills {{input}}") }
        return words + (sets.isEmpty ? "" : " (" + sets.joined(separator: ", ") + ")")
    }

    private static func plain(_ value: SamplingValue) -> String {
        switch value {
        case .wholeNumber(let number): String(number)
        case .number(let number): ErrorWording.plain(number)
        case .effort(let level): level.rawValue
        }
    }
}
