/// Reads typed values out of a config object, naming the key and the expected type on failure.
struct ConfigReader {
    var object: [String: JSONValue]
    var path: String

    func string(_ key: String) throws(ConfigIssue) -> String? {
        switch object[key] {
        case nil: return nil
        case .string(let value): return value
        case let other?: throw mismatch(key, "a string", other)
        }
    }

    func choice(_ key: String, among words: [String]) throws(ConfigIssue) -> String? {
        guard let value = try string(key) else { return nil }
        guard words.contains(value) else {
            throw ConfigIssue(
                key: path + key,
                problem: "expected \(words.map { "\"\($0)\"" }.joined(separator: ", ")), got \"\(value)\"")
        }
        return value
    }

    func bool(_ key: String) throws(ConfigIssue) -> Bool? {
        switch object[key] {
        case nil: return nil
        case .bool(let value): return value
        case let other?: throw mismatch(key, "true or false", other)
        }
    }

    func number(_ key: String, range: ClosedRange<Double>) throws(ConfigIssue) -> Double? {
        switch object[key] {
        case nil: return nil
        case .number(let value):
            guard range.contains(value) else {
                throw ConfigIssue(
                    key: path + key,
                    problem: "expected a number from \(range.lowerBound) to \(range.upperBound), got \(value)")
            }
            return value
        case let other?: throw mismatch(key, "a number", other)
        }
    }

    func integer(_ key: String, minimum: Int) throws(ConfigIssue) -> Int? {
        switch object[key] {
        case nil: return nil
        case .number(let value):
            guard value == value.rounded(), value >= Double(minimum), value < 1e15 else {
                throw ConfigIssue(
                    key: path + key, problem: "expected a whole number of at least \(minimum), got \(value)")
            }
            return Int(value)
        case let other?: throw mismatch(key, "a whole number", other)
        }
    }

    func stringMap(_ key: String) throws(ConfigIssue) -> [String: String]? {
        switch object[key] {
        case nil: return nil
        case .object(let entries):
            var result: [String: String] = [:]
            for (name, value) in entries {
                guard case .string(let text) = value else {
                    throw ConfigIssue(key: path + key + "." + name, problem: "expected a string, got \(value.typeName)")
                }
                result[name] = text
            }
            return result
        case let other?: throw mismatch(key, "an object of strings", other)
        }
    }

    private func mismatch(_ key: String, _ expected: String, _ value: JSONValue) -> ConfigIssue {
        ConfigIssue(key: path + key, problem: "expected \(expected), got \(value.typeName)")
    }
}
