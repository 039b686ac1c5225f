import ChatDomain
import ChatJSON

/// One JSON-RPC 2.0 message between chat and an MCP server, whatever carries it.
enum MCPMessage: Equatable {
    /// The answer to chat's request `id`: its result, or the server's error in words.
    case response(id: Int, Result<JSONValue, ToolServerFailure>)
    /// A request of the server's, which chat must answer (`answer(to:)`).
    case request(id: JSONValue, method: String)
    case notification(method: String)

    /// What `message` is; nil when it is not one of these (not an object, or an answer with
    /// no id chat could have given). `redact` takes secrets out of a server's error text before
    /// it is cut to a line (a secret cut in two could no longer be found).
    init?(_ message: JSONValue, redacting redact: (String) -> String = { $0 }) {
        guard message.isObject else { return nil }
        let id = message["id"]
        if let method = message["method"]?.string {
            self = id.map { .request(id: $0, method: method) } ?? .notification(method: method)
            return
        }
        guard let number = id?.wholeNumber else { return nil }
        if let error = message["error"] {
            let text = error["message"]?.string ?? error.jsonText ?? "an error"
            self = .response(id: number, .failure(.serverError(ServerText.line(redact(text), limit: 300))))
        } else {
            self = .response(id: number, .success(message["result"] ?? .null))
        }
    }

    /// Chat's answer to the server's request `method`: `ping` is answered, anything else is
    /// "method not found".
    static func answer(to method: String, id: JSONValue) -> JSONValue {
        let answer: (String, JSONValue) =
            method == "ping"
            ? ("result", .object([:]))
            : ("error", .object(["code": .number(-32601), "message": .string("method not found")]))
        return .object(["jsonrpc": .string("2.0"), "id": id, answer.0: answer.1])
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
