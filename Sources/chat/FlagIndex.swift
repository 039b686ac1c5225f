import ChatData

/// The flags of `ChatArguments` as a plain table, so the common command line (known options, each
/// once, then the prompt) is read without ArgumentParser, whose reflection of the declarations
/// costs every start with an option about 8.5 M instructions (measured with callgrind: 30% of
/// `chat --version`). Anything else (an unknown or repeated option, a value missing, a short
/// option with its value attached) returns nil, and ArgumentParser reads the line as before,
/// with its messages. `FlagIndexTests` holds the table to the declarations and to
/// ArgumentParser's reading, so the two cannot drift apart.
struct FlagIndex {
    /// One declared flag.
    struct Entry: Equatable {
        /// Its property in `ChatArguments`.
        var property: String
        /// `--` and its long name.
        var long: String
        /// `-` and its short name, if it has one.
        var short: String?
        /// An `@Option` (takes a value) rather than a `Bool` `@Flag`.
        var takesValue: Bool
        /// An `@Option` that may be given again, each value kept (`-f a -f b`).
        var repeats: Bool
        /// The setting it sets, if it is a settings flag.
        var setting: ChatArguments.SettingBinding?

        /// An entry whose long name follows its property's name (`maxTokens`: `--max-tokens`), as
        /// ArgumentParser's default does, unless `long` is given.
        init(_ property: String, short: Character? = nil, long: String? = nil, value: Bool, repeats: Bool = false) {
            let binding = ChatArguments.SettingBinding(property: property)
            self.property = property
            self.long = long.map { "--" + $0 } ?? binding.flag
            self.short = short.map { "-\($0)" }
            takesValue = value
            self.repeats = repeats
            setting = SettingOverrides.isSetting(binding.key) ? binding : nil
        }
    }

    /// Every flag, in the order of the declarations.
    static let entries: [Entry] = [
        Entry("model", short: "m", value: true),
        Entry("systemPrompt", short: "s", long: "system", value: true),
        Entry("temperature", value: true),
        Entry("maxTokens", value: true),
        Entry("topP", value: true),
        Entry("baseURL", value: true),
        Entry("noStream", value: false),
        Entry("connectTimeout", value: true),
        Entry("idleTimeout", value: true),
        Entry("retries", value: true),
        Entry("caCert", value: true),
        Entry("clientCert", value: true),
        Entry("clientKey", value: true),
        Entry("allowInsecureHTTP", value: false),
        Entry("noHistory", value: false),
        Entry("render", value: true),
        Entry("raw", value: false),
        Entry("code", value: false),
        Entry("role", short: "r", value: true),
        Entry("listRoles", value: false),
        Entry("execute", short: "x", long: "execute", value: false),
        Entry("historyAppend", value: false),
        Entry("file", short: "f", value: true, repeats: true),
        Entry("models", value: false),
        Entry("all", value: false),
        Entry("limit", short: "n", long: "limit", value: true),
        Entry("profile", value: true),
        Entry("config", value: true),
        Entry("verbose", short: "v", value: false),
        Entry("interactive", short: "i", value: false),
        Entry("continueLast", short: "c", long: "continue", value: false),
        Entry("conversation", value: true),
        Entry("list", value: false),
        Entry("search", value: true),
        Entry("show", value: true),
        Entry("export", value: true),
        Entry("format", value: true),
        Entry("delete", value: true),
        Entry("completions", value: true),
        Entry("help", short: "h", value: false),
        Entry("version", value: false),
    ]

    /// The entries by every name they answer to.
    static let byName: [String: Entry] = {
        var names: [String: Entry] = [:]
        for entry in entries {
            names[entry.long] = entry
            if let short = entry.short { names[short] = entry }
        }
        return names
    }()

    /// `arguments` read by the table: options (`--name value`, `--name=value`, `-x value`, flags),
    /// each at most once, until `--` or a word that does not start with `-`, which begins the
    /// prompt. Nil for anything else, which ArgumentParser reads instead.
    static func read(_ arguments: [String]) -> GivenFlags? {
        var given = GivenFlags()
        var index = 0
        while index < arguments.count {
            let word = arguments[index]
            guard word.utf8.first == UInt8(ascii: "-"), word != "--" else {
                given.prompt = Array(arguments[index...])
                return given
            }
            var name = word
            var attached: String?
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = String(word[..<equals])
                attached = String(word[word.index(after: equals)...])
            }
            guard let entry = byName[name], given.values[entry.property] == nil, !given.flags.contains(entry.property)
            else { return nil }
            if entry.takesValue {
                let value: String
                if let attached {
                    value = attached
                } else {
                    guard index + 1 < arguments.count else { return nil }
                    index += 1
                    value = arguments[index]
                }
                if entry.repeats {
                    given.lists[entry.property, default: []].append(value)
                } else {
                    given.values[entry.property] = value
                }
            } else {
                guard attached == nil else { return nil }
                given.flags.insert(entry.property)
            }
            index += 1
        }
        return given
    }
}
