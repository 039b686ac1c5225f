import ChatDomain

/// Why an MCP request has no result: the server's JSON-RPC error (over HTTP, with the status it
/// came with when that was not 2xx), or a failure of the transport or the server.
enum MCPRequestError: Error, Sendable, Equatable {
    case rpc(MCPRPCError, status: Int?)
    /// `broken`: the request went out and its answer broke off (a stream cut short), so the
    /// server may have acted on it.
    case failure(ToolServerFailure, broken: Bool)

    /// A failure that is not a broken answer.
    static func failed(_ failure: ToolServerFailure) -> MCPRequestError {
        .failure(failure, broken: false)
    }

    /// As the domain has it: the server's error is its message.
    var failure: ToolServerFailure {
        switch self {
        case .rpc(let error, _): .serverError(error.message)
        case .failure(let failure, _): failure
        }
    }

    var rpc: MCPRPCError? {
        if case .rpc(let error, _) = self { return error }
        return nil
    }

    var isBroken: Bool {
        if case .failure(_, true) = self { return true }
        return false
    }
}
