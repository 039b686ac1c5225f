/// How the API key goes into a request. The engine writes it, so no provider does.
public enum APIKeyPlacement: Sendable, Equatable {
    /// `Authorization: Bearer KEY`, as OpenAI and most compatible servers want.
    case bearer
    /// The key alone in the header of this name (Azure's `api-key`, Anthropic's `x-api-key`).
    case header(String)

    /// The header field that carries `key`.
    func field(for key: String) -> (name: String, value: String) {
        switch self {
        case .bearer: return ("Authorization", "Bearer \(key)")
        case .header(let name): return (name, key)
        }
    }

    /// The name of that field.
    var headerName: String {
        switch self {
        case .bearer: return "Authorization"
        case .header(let name): return name
        }
    }
}
