import ChatDomain
import ChatJSON

/// Writes JSON objects one a line, each line at once (`--json`: an answer's events and the
/// listings), by chat's one JSON writer (`JSONValue.jsonText`).
public struct JSONLines: Sendable {
    private let output: any OutputSink

    /// Lines go to `output`.
    public init(_ output: any OutputSink) {
        self.output = output
    }

    /// Writes `members` as one object and a newline, in one write; false when the reader has
    /// gone. (A value JSON cannot hold, which chat never makes, writes nothing.)
    @discardableResult
    public func write(_ members: [String: JSONValue]) -> Bool {
        guard let text = JSONValue.object(members).jsonText else { return true }
        return output.write(text + "\n")
    }
}

extension JSONValue {
    /// A whole number as JSON holds it, or null.
    static func number(_ value: Int?) -> JSONValue {
        value.map { .number(Double($0)) } ?? .null
    }

    /// A number, or null.
    static func number(_ value: Double?) -> JSONValue {
        value.map { .number($0) } ?? .null
    }

    /// A text, or null.
    static func string(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }
}
