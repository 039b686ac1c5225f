import ArgumentParser
import ChatData

extension ChatArguments {
    /// A flag's property, as the settings table knows it.
    struct SettingBinding: Equatable {
        /// The config key it sets: the property name in snake_case, without a leading `no`.
        var key: String
        /// What a `Bool` flag sets the key to when given: false for a `noX` flag.
        var value: Bool
        /// The flag's default long name, to name it in messages: `--max-tokens`.
        var flag: String

        /// The binding of the property `name` (`maxTokens`, `noStream`, `allowInsecureHTTP`).
        init(property name: String) {
            let words = Self.words(of: name)
            let negated = words.count > 1 && words[0] == "no"
            key = (negated ? words.dropFirst() : words[...]).joined(separator: "_")
            value = !negated
            flag = "--" + words.joined(separator: "-")
        }

        /// The lower-case words of a camelCase name; a run of capitals is one word
        /// (`allowInsecureHTTP`: allow, insecure, http), as ArgumentParser splits names too.
        /// Property names are ASCII, so this reads bytes.
        static func words(of name: String) -> [String] {
            let bytes = Array(name.utf8)
            func isUpper(_ index: Int) -> Bool { bytes.indices.contains(index) && (65...90).contains(bytes[index]) }
            func isLower(_ index: Int) -> Bool { bytes.indices.contains(index) && (97...122).contains(bytes[index]) }
            var words: [String] = []
            var current: [UInt8] = []
            for index in bytes.indices {
                let startsWord = isUpper(index) && (!isUpper(index - 1) || isLower(index + 1)) && index > 0
                if startsWord && !current.isEmpty {
                    words.append(String(decoding: current, as: UTF8.self))
                    current = []
                }
                current.append(isUpper(index) ? bytes[index] + 32 : bytes[index])
            }
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            return words
        }
    }

    /// The flags given, from one `Mirror` walk over the `@Option`s (text), the `@Flag`s (true or
    /// false) and the prompt. `original` turns a parsed word back into what was typed (see
    /// `ArgumentShield`).
    func given(original: (String) -> String) -> GivenFlags {
        var given = GivenFlags()
        for child in Mirror(reflecting: self).children {
            guard let label = child.label else { continue }
            let property = String(label.drop { $0 == "_" })
            switch child.value {
            case let option as Option<String?>:
                if let text = option.wrappedValue { given.values[property] = original(text) }
            case let flag as Flag<Bool>:
                if flag.wrappedValue { given.flags.insert(property) }
            case let option as Option<[String]>:
                if !option.wrappedValue.isEmpty { given.lists[property] = option.wrappedValue.map(original) }
            case let argument as Argument<[String]>:
                given.prompt = argument.wrappedValue.map(original)
            default:
                preconditionFailure("\(property) is neither text, texts, a Bool flag nor the prompt")
            }
        }
        return given
    }
}
