import ChatDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The way JSON-RPC messages reach one MCP server and its answers come back: a child's pipes
/// (`MCPStdioConnection`) or HTTP requests (`MCPHTTPConnection`). `MCPClient` speaks MCP over
/// either; what the server sends of its own accord goes to the connection's `MCPInbound`.
protocol MCPConnection: Sendable {
    /// Sends a request and waits for its result, at most its timeout. A timeout, or a
    /// cancellation of the calling task, gives the request up and tells the server
    /// (`notifications/cancelled`; over HTTP in the modern era, by closing its stream).
    func request(_ request: MCPRequest) async -> Result<JSONValue, MCPRequestError>

    /// Sends a notification; what goes wrong with it is dropped.
    func notify(_ method: String, params: JSONValue) async

    /// Ends the session (and the server, when chat started it), within 3 s; a request made
    /// afterwards fails (over stdio, so does every request still waiting).
    func close() async

    /// As this process ends: ends the session as `close()` does, but leaves a child that is
    /// still running to end by itself (its input closed); that child, for
    /// `ProcessSpawn.endAfterExit`.
    func closeAtExit() async -> pid_t?
}

extension MCPConnection {
    /// Sends a notification with no parameters.
    func notify(_ method: String) async {
        await notify(method, params: .object([:]))
    }

    /// Sends request `method` of the legacy era (or before the era is known).
    func request(_ method: String, params: JSONValue, timeout: Double) async -> Result<JSONValue, MCPRequestError> {
        await request(MCPRequest(method, params: params, timeout: timeout))
    }
}
