import ChatDomain

/// Reads typed values out of a config object; an issue names the key and what was expected.
package struct ConfigReader {
    var object: [String: JSONValue]
    var path: String

    func string(_ key: String) throws(ConfigIssue) -> String? {
        switch object[key] {
        case nil: return nil
        case .string(let value): return value
        case let other?: throw mismatch(key, .string, other)
        }
    }

    func choice(_ key: String, among words: [String]) throws(ConfigIssue) -> String? {
        guard let value = try string(key) else { return nil }
        guard words.contains(value) else { throw ConfigIssue(key: path + key, problem: .notOneOf(words, got: value)) }
        return value
    }

    func bool(_ key: String) throws(ConfigIssue) -> Bool? {
        switch object[key] {
        case nil: return nil
        case .bool(let value): return value
        case let other?: throw mismatch(key, .trueOrFalse, other)
        }
    }

    func number(_ key: String, range: ClosedRange<Double>) throws(ConfigIssue) -> Double? {
        switch object[key] {
        case nil: return nil
        case .number(let value):
            guard range.contains(value) else {
                throw ConfigIssue(key: path + key, problem: .numberOutOfRange(range, got: value))
            }
            return value
        case let other?: throw mismatch(key, .number, other)
        }
    }

    func integer(_ key: String, minimum: Int) throws(ConfigIssue) -> Int? {
        switch object[key] {
        case nil: return nil
        case .number(let value):
            guard value == value.rounded(), value >= Double(minimum), value < 1e15 else {
                throw ConfigIssue(key: path + key, problem: .notAWholeNumber(minimum: minimum, got: value))
            }
            return Int(value)
        case let other?: throw mismatch(key, .wholeNumber, other)
        }
    }

    func stringMap(_ key: String) throws(ConfigIssue) -> [String: String]? {
        switch object[key] {
        case nil: return nil
        case .object(let entries):
            var result: [String: String] = [:]
            for (name, value) in entries {
                guard case .string(let text) = value else {
                    throw ConfigIssue(
                        key: path + key + "." + name, problem: .wrongType(expected: .string, got: value.kind))
                }
                result[name] = text
            }
            return result
        case let other?: throw mismatch(key, .objectOfStrings, other)
        }
    }

    func strings(_ key: String) throws(ConfigIssue) -> [String]? {
        switch object[key] {
        case nil: return nil
        case .array(let items):
            var result: [String] = []
            for item in items {
                guard case .string(let text) = item else { throw mismatch(key, .listOfStrings, item) }
                result.append(text)
            }
            return result
        case let other?: throw mismatch(key, .listOfStrings, other)
        }
    }

    private func mismatch(_ key: String, _ expected: ConfigExpectation, _ value: JSONValue) -> ConfigIssue {
        ConfigIssue(key: path + key, problem: .wrongType(expected: expected, got: value.kind))
    }
}
