import ChatDomain
import Synchronization

/// What one server sends of its own accord, handled: its notifications (progress passed to the
/// call that asked for it, a list that changed passed on) and its requests answered (`ping`;
/// `elicitation/create` put to the `ServerQuestionAnswerer`; anything else "method not found").
/// Both transports hand it every such message.
final class MCPInbound: Sendable {
    private struct State {
        var progress: [String: @Sendable (ToolProgress) -> Void] = [:]
        var nextToken = 0
    }

    /// The server's name in the config.
    let server: String
    private let answerer: (any ServerQuestionAnswerer)?
    /// The server's lists, made stale by its `notifications/…/list_changed`.
    let lists = MCPListCache()
    private let state = Mutex(State())

    init(server: String, answerer: (any ServerQuestionAnswerer)?) {
        self.server = server
        self.answerer = answerer
    }

    /// A new progress token whose notifications go to `handler`, until `endProgress`.
    func progressToken(_ handler: @escaping @Sendable (ToolProgress) -> Void) -> String {
        state.withLock { state in
            state.nextToken += 1
            let token = "chat-\(state.nextToken)"
            state.progress[token] = handler
            return token
        }
    }

    func endProgress(_ token: String) {
        _ = state.withLock { $0.progress.removeValue(forKey: token) }
    }

    /// Handles the server's notification `method`.
    func notification(_ method: String, params: JSONValue) {
        switch method {
        case "notifications/progress":
            let token = params["progressToken"].flatMap { $0.string ?? $0.jsonNumberText }
            guard let token, let progress = params["progress"]?.number,
                let handler = state.withLock({ $0.progress[token] })
            else { return }
            handler(
                ToolProgress(progress: progress, total: params["total"]?.number, message: params["message"]?.string))
        case "notifications/tools/list_changed", "notifications/prompts/list_changed",
            "notifications/resources/list_changed":
            lists.changed(method)
        default:
            break
        }
    }

    /// The answer to the server's request `method`.
    func answer(_ method: String, params: JSONValue) async -> Result<JSONValue, MCPRPCError> {
        switch method {
        case "ping":
            return .success(.object([:]))
        case "elicitation/create":
            guard let question = MCPQuestion.question(from: params, server: server) else {
                return .failure(MCPRPCError(code: -32602, message: "the elicitation request is not one chat reads"))
            }
            let answer = await answerer?.answer(question) ?? .decline
            return .success(MCPQuestion.result(answer))
        default:
            return .failure(MCPRPCError(code: -32601, message: "method not found"))
        }
    }
}

extension JSONValue {
    /// A whole number's digits (a progress token may be one).
    fileprivate var jsonNumberText: String? {
        wholeNumber.map(String.init)
    }
}
