/// Failures of the Data layer's own machinery: transport and configuration.
public enum DataError: Error, Sendable, Equatable {
    /// libcurl could not complete the transfer; `code` is its CURLcode.
    case transport(code: Int, message: String)
    /// No connection within this many seconds.
    case connectTimeout(seconds: Double)
    /// No byte for this many seconds.
    case idleTimeout(seconds: Double)
    /// A config file that cannot be used: which file, and what is wrong.
    case config(file: String, message: String)
    /// A setting that cannot be used (flag or environment variable).
    case setting(String)
    /// No API key for a server that needs one.
    case missingAPIKey(String)
}

extension DataError: CustomStringConvertible {
    /// One line for the person.
    public var description: String {
        switch self {
        case .transport(_, let message): return message
        case .connectTimeout(let seconds): return "could not connect within \(seconds) s"
        case .idleTimeout(let seconds): return "no data for \(seconds) s"
        case .config(let file, let message): return "config \(file): \(message)"
        case .setting(let message): return message
        case .missingAPIKey(let message): return message
        }
    }
}
