import ChatDomain

/// Writes JSON objects one a line, each line at once (`--json`: an answer's events and the
/// listings). The text comes from `encode`, which the executable hands in: the one JSON writer is
/// the Data layer's, which Presentation does not see (it knows the domain only).
public struct JSONLines: Sendable {
    /// A JSON value as compact text on one line; nil when JSON cannot hold it.
    public typealias Encode = @Sendable (JSONValue) -> String?

    private let output: any OutputSink
    private let encode: Encode

    /// Lines go to `output`, each value written by `encode`.
    public init(output: any OutputSink, encode: @escaping Encode) {
        self.output = output
        self.encode = encode
    }

    /// Writes `members` as one object and a newline, in one write; false when the reader has
    /// gone. (A value JSON cannot hold, which chat never makes, writes nothing.)
    @discardableResult
    public func write(_ members: [String: JSONValue]) -> Bool {
        guard let text = encode(.object(members)) else { return true }
        return output.write(text + "\n")
    }
}

extension JSONValue {
    /// A whole number as JSON holds it, or null.
    static func number(_ value: Int?) -> JSONValue {
        value.map { .number(Double($0)) } ?? .null
    }

    /// A text, or null.
    static func string(_ value: String?) -> JSONValue {
        value.map { .string($0) } ?? .null
    }
}
