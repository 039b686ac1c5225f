import ChatDomain
import ChatJSON

/// One JSON-RPC 2.0 message between chat and an MCP server, whatever carries it.
enum MCPMessage: Equatable {
    /// The answer to chat's request `id`: its result, or the server's error.
    case response(id: Int, Result<JSONValue, MCPRPCError>)
    /// A request of the server's, which chat must answer (`MCPInbound.answer`).
    case request(id: JSONValue, method: String, params: JSONValue)
    case notification(method: String, params: JSONValue)

    /// What `message` is; nil when it is not one of these (not an object, or an answer with
    /// no id chat could have given). `redact` takes secrets out of a server's error text before
    /// it is cut to a line (a secret cut in two could no longer be found).
    init?(_ message: JSONValue, redacting redact: (String) -> String = { $0 }) {
        guard message.isObject else { return nil }
        let id = message["id"]
        if let method = message["method"]?.string {
            let params = message["params"] ?? .object([:])
            self =
                id.map { .request(id: $0, method: method, params: params) }
                ?? .notification(method: method, params: params)
            return
        }
        guard let number = id?.wholeNumber else { return nil }
        if let error = message["error"] {
            self = .response(id: number, .failure(Self.error(error, redacting: redact)))
        } else {
            self = .response(id: number, .success(message["result"] ?? .null))
        }
    }

    /// A JSON-RPC `error` member as chat keeps it: its message made safe.
    static func error(_ error: JSONValue, redacting redact: (String) -> String = { $0 }) -> MCPRPCError {
        let text = error["message"]?.string ?? error.jsonText ?? "an error"
        return MCPRPCError(
            code: error["code"]?.wholeNumber ?? 0, message: ServerText.line(redact(text), limit: 300),
            data: error["data"])
    }

    /// Chat's answer `result` (or error) to the server's request `id`.
    static func answer(_ result: Result<JSONValue, MCPRPCError>, id: JSONValue) -> JSONValue {
        switch result {
        case .success(let value):
            return .object(["jsonrpc": .string("2.0"), "id": id, "result": value])
        case .failure(let error):
            return .object([
                "jsonrpc": .string("2.0"), "id": id,
                "error": .object(["code": .number(Double(error.code)), "message": .string(error.message)]),
            ])
        }
    }

    /// Chat's request number `id`.
    static func request(id: Int, method: String, params: JSONValue) -> JSONValue {
        .object(["jsonrpc": .string("2.0"), "id": .number(Double(id)), "method": .string(method), "params": params])
    }

    static func notification(_ method: String, params: JSONValue) -> JSONValue {
        .object(["jsonrpc": .string("2.0"), "method": .string(method), "params": params])
    }

    /// The notification that chat gave up its request `id`, and why.
    static func cancelled(_ id: Int, reason: String) -> JSONValue {
        notification(
            "notifications/cancelled", params: .object(["requestId": .number(Double(id)), "reason": .string(reason)]))
    }

    /// Why a request is given up, as `notifications/cancelled` tells the server.
    static func reason(_ failure: ToolServerFailure) -> String {
        switch failure {
        case .cancelled: "the user cancelled this tool call"
        case .noAnswer(let seconds):
            "no answer within " + (seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s")
        default: "given up"
        }
    }
}
