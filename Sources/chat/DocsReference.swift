import ChatCatalogue
import ChatConfig
import ChatHTTP
import ChatPresentation

/// The parts of the documentation that the declarations hold, as Markdown: the hidden
/// `chat --reference KIND`, which `scripts/docs` writes into README.md and docs/ (and checks, in
/// the tests), so that a new option, config key, REPL command or exit status cannot go
/// undocumented.
enum DocsReference {
    /// What can be asked for.
    enum Kind: String, CaseIterable, Sendable {
        /// The product's paragraph (`ProductDescription`): the README's first.
        case description
        /// Every config key (`SettingsTable`, then the file's sections): docs/configuration.md.
        case configKeys = "config-keys"
        /// Every option `--help` lists (`OptionCatalogue`): docs/options.md.
        case options
        /// Every REPL command `/help` lists (`SlashCommandList`): docs/usage.md.
        case replCommands = "repl-commands"
        /// The exit statuses (`ExitStatus`): docs/troubleshooting.md.
        case exitStatus = "exit-status"
    }

    /// The Markdown for `kind`, ending with a newline.
    static func markdown(_ kind: Kind) -> String {
        switch kind {
        case .description: return wrapped(ProductDescription.paragraph) + "\n"
        case .configKeys: return configKeys
        case .options: return options
        case .replCommands: return replCommands
        case .exitStatus: return exitStatus
        }
    }

    private static var configKeys: String {
        var rows = [
            "| Key | Takes | Default | Environment | Flag | What it does |", "|---|---|---|---|---|---|",
        ]
        for setting in SettingsTable.all {
            let variables = ProviderKind.allCases.compactMap { provider in
                provider.environmentVariable(for: setting).map { (provider, $0) }
            }
            // The first provider's variable, then each other provider's that differs from it.
            let environment = variables.enumerated().filter { index, entry in
                index == 0 || entry.1 != variables[0].1
            }.map { index, entry in
                code(entry.1) + (index == 0 ? "" : " (\(entry.0.rawValue))")
            }.joined(separator: ", ")
            var defaults = setting.defaultValue.flatMap(shown).map(code) ?? ""
            for provider in ProviderKind.allCases {
                if let own = provider.defaults[setting.key].flatMap(shown) {
                    defaults += (defaults.isEmpty ? "" : "; ") + "\(provider.rawValue): " + code(own)
                }
            }
            let flag = setting.flag.map { flag in ([flag.shortName].compactMap { $0 } + [flag.longName]).map(code) }
            rows.append(
                "| "
                    + [
                        code(setting.key), takes(setting.kind), defaults, environment,
                        flag?.joined(separator: ", ") ?? "", cell(sentence(setting.about)),
                    ].joined(separator: " | ") + " |")
        }
        for section in ConfigFile.sections {
            rows.append(
                "| " + [code(section.key), section.takes, "", "", "", cell(section.about)].joined(separator: " | ")
                    + " |")
        }
        return rows.joined(separator: "\n") + "\n"
    }

    private static var options: String {
        var rows = ["| Option | Value | What it does |", "|---|---|---|"]
        for entry in OptionCatalogue.entries {
            let flag = entry.flag
            let names = ([flag.shortName].compactMap { $0 } + [flag.longName]).map(code).joined(separator: ", ")
            rows.append("| \(names) | \(flag.valueName.map(code) ?? "") | \(cell(flag.help)) |")
        }
        return rows.joined(separator: "\n") + "\n"
    }

    private static var replCommands: String {
        var rows = ["| Command | What it does |", "|---|---|"]
        for command in SlashCommandList.entries { rows.append("| \(code(command.usage)) | \(cell(command.summary)) |") }
        return rows.joined(separator: "\n") + "\n"
    }

    private static var exitStatus: String {
        var rows = ["| Status | When |", "|---|---|"]
        for entry in ExitStatus.table { rows.append("| \(entry.status) | \(cell(entry.meaning)) |") }
        return rows.joined(separator: "\n") + "\n"
    }

    /// What a key takes, in words.
    private static func takes(_ kind: SettingKind) -> String {
        switch kind {
        case .text: return "text"
        case .number(let range):
            return "number, \(SettingKind.plain(range.lowerBound)) to \(SettingKind.plain(range.upperBound))"
        case .seconds(let range): return "seconds, up to \(SettingKind.plain(range.upperBound))"
        case .wholeNumber(let minimum, _): return "whole number, at least \(minimum)"
        case .boolean: return "`true` or `false`"
        case .stringMap: return "object of strings"
        case .choice(let words): return words.map(code).joined(separator: ", ")
        case .names: return "list of names"
        }
    }

    /// A default as the config file would hold it; nil for one not worth showing.
    private static func shown(_ value: SettingValue) -> String? {
        switch value {
        case .text(let text): return "\"\(text)\""
        case .number(let number): return SettingKind.plain(number)
        case .wholeNumber(let number): return String(number)
        case .boolean(let truth): return truth ? "true" : "false"
        case .stringMap, .names: return nil
        }
    }

    /// `text` as a sentence: a capital first, a full stop last (a sampling setting's words are
    /// `--help`'s, which are neither).
    private static func sentence(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }

    private static func code(_ text: String) -> String {
        "`" + text + "`"
    }

    /// Text for a table's cell: a `|` would end the cell.
    private static func cell(_ text: String) -> String {
        text.replacing("|", with: "\\|")
    }

    /// A paragraph in lines of at most 100 columns.
    private static func wrapped(_ text: String) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > 100 {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
