/// Status and header fields of a response, known before its body.
package struct HTTPResponseHead: Sendable, Equatable {
    package var status: Int
    /// Header fields by lowercased name; the last value wins.
    var headers: [String: String]

    /// The value of a header field, by any case of its name.
    package func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }

    /// The media type without parameters, lowercased (`text/event-stream`).
    package var mediaType: String {
        let value = header("content-type") ?? ""
        let type = value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return type.trimmingASCIIWhitespace().lowercased()
    }
}
