/// Failures of the Data layer's own machinery: the transport. (Settings that cannot be used are
/// `SettingsError`, facts the presentation words.)
public enum DataError: Error, Sendable, Equatable {
    /// libcurl could not complete the transfer; `code` is its CURLcode.
    case transport(code: Int, message: String)
    /// No connection within this many seconds.
    case connectTimeout(seconds: Double)
    /// No byte for this many seconds.
    case idleTimeout(seconds: Double)
}

extension DataError: CustomStringConvertible {
    /// One line for the person.
    public var description: String {
        switch self {
        case .transport(_, let message): return message
        case .connectTimeout(let seconds): return "could not connect within \(seconds) s"
        case .idleTimeout(let seconds): return "no data for \(seconds) s"
        }
    }
}
