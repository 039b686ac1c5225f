import Foundation
import Glibc

/// A Streamable HTTP MCP server written with the PyPI `mcp` SDK (its `MCPServer`, FastMCP before
/// mcp 2), run by the venv's Python on 127.0.0.1 and an ephemeral port. Mode `sse`: sessions,
/// answers as event streams, and its tool `add` sends a log notification and pings chat on the
/// answer's stream before it answers. Mode `json`: stateless, answers as JSON. Each HTTP request
/// it gets is a JSON line in its log: method, the headers chat sent, the status and the session
/// id it gave. With a certificate and its key, it speaks https (uvicorn's TLS).
public final class PythonMCPServer: Sendable {
    private static let script = #"""
        import json, socket, sys
        import uvicorn
        from mcp import types
        from mcp.shared.message import ServerMessageMetadata

        mode, log_path, certificate, key = sys.argv[1:5]
        stateless = json_response = mode == "json"
        try:
            from mcp.server.mcpserver import MCPServer, Context
            server = MCPServer("chat-test")
            make_app = lambda: server.streamable_http_app(stateless_http=stateless, json_response=json_response)
        except ImportError:
            from mcp.server.fastmcp import FastMCP as MCPServer, Context
            server = MCPServer("chat-test", stateless_http=stateless, json_response=json_response)
            make_app = server.streamable_http_app

        @server.tool()
        async def add(a: int, b: int, ctx: Context) -> str:
            """Adds two whole numbers."""
            if not stateless:
                await ctx.info("adding")
                await ctx.session.send_request(types.PingRequest(), types.EmptyResult, request_read_timeout_seconds=10,
                                               metadata=ServerMessageMetadata(related_request_id=ctx.request_id))
            return str(a + b)

        app = make_app()
        log = open(log_path, "a")

        async def logged(scope, receive, send):
            if scope["type"] != "http":
                return await app(scope, receive, send)
            headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
            seen = {"method": scope["method"], "authorization": headers.get("authorization"),
                    "session": headers.get("mcp-session-id"), "version": headers.get("mcp-protocol-version"),
                    "accept": headers.get("accept"), "mcp_method": headers.get("mcp-method"),
                    "mcp_name": headers.get("mcp-name")}
            async def sending(message):
                if message["type"] == "http.response.start":
                    given = {k.decode().lower(): v.decode() for k, v in message.get("headers", [])}
                    seen.update(status=message["status"], given=given.get("mcp-session-id"),
                                type=given.get("content-type"))
                    log.write(json.dumps(seen) + "\n"); log.flush()
                await send(message)
            await app(scope, receive, sending)

        sock = socket.socket(); sock.bind(("127.0.0.1", 0)); sock.listen(16)
        print(sock.getsockname()[1], flush=True)
        tls = dict(ssl_certfile=certificate, ssl_keyfile=key) if certificate else {}
        uvicorn.Server(uvicorn.Config(logged, log_level="warning", **tls)).run(sockets=[sock])
        """#

    private let process: Process
    /// Its port on 127.0.0.1.
    public let port: Int
    private let logPath: String
    private let scheme: String

    /// Starts one off the test pool (its start reads the server's first line, a second or more).
    public static func start(mode: String, certificate: String? = nil, key: String? = nil) async throws
        -> PythonMCPServer
    {
        try await OffThePool.run { try PythonMCPServer(mode: mode, certificate: certificate, key: key) }
    }

    /// Starts it in `mode` (`sse` or `json`); over https with `certificate` and `key` (PEM files).
    public init(mode: String, certificate: String? = nil, key: String? = nil) throws {
        let venv = try MCPTestVenv.directory.get()
        scheme = certificate == nil ? "http" : "https"
        logPath =
            FileManager.default.temporaryDirectory.appendingPathComponent("chat-mcp-http-\(UUID().uuidString)")
            .path
        let (process, ports) = try ListeningProcess.start(
            venv + "/bin/python3", ["-c", Self.script, mode, logPath, certificate ?? "", key ?? ""], ports: 1,
            failure: "the Python MCP server did not start")
        self.process = process
        port = ports[0]
    }

    /// Its endpoint.
    public var url: String { "\(scheme)://127.0.0.1:\(port)/mcp" }

    /// The HTTP requests it has answered, in order, a JSON object each: `method`,
    /// `authorization`, `session`, `version`, `accept`, `mcp_method` and `mcp_name` as chat sent them; `status`, `given`
    /// (the session id it gave) and `type` (the answer's content type).
    public var requestLines: [String] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// SIGKILL: a child of Foundation's `Process` inherits the test thread's blocked signals, so
    /// uvicorn would never see a SIGTERM.
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: logPath)
    }
}
