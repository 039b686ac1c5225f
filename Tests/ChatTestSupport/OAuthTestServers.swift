import Foundation
import Glibc

/// An OAuth 2.1 authorization server and an MCP server it protects, written with the PyPI `mcp`
/// SDK's own toolkit (`create_auth_routes`, `MCPServer` with `AuthSettings`), run by the tests'
/// venv on 127.0.0.1 and two ephemeral ports. The authorization server publishes its metadata
/// (RFC 8414, PKCE S256), registers clients dynamically (RFC 7591), approves every authorization
/// at once (redirecting to the client's loopback callback with the code, the state and `iss`),
/// and issues tokens with refresh tokens that rotate; the MCP server answers a request without a
/// valid token with 401 and `WWW-Authenticate: Bearer … resource_metadata="…"`, and has a tool
/// `add`. Options (JSON): `iss` (`right`, `wrong` or `none`), `preregistered` (`client_id`,
/// `client_secret`: a client registered beforehand), `no_registration`. Each HTTP request is a
/// JSON line in its log (server, method, path, the Authorization sent, status), and so is each
/// step of the authorization server (`register`, `authorize`, `redeem`, `refresh`).
public final class OAuthTestServers: Sendable {
    private static let script = #"""
        import json, socket, sys, time, secrets, warnings, logging
        warnings.simplefilter("ignore"); logging.disable(logging.WARNING)
        import asyncio, uvicorn
        from pydantic import AnyHttpUrl
        from starlette.applications import Starlette
        from mcp.server.auth.provider import AccessToken, AuthorizationCode, RefreshToken, TokenVerifier, construct_redirect_uri
        from mcp.server.auth.routes import create_auth_routes
        from mcp.server.auth.settings import AuthSettings, ClientRegistrationOptions, RevocationOptions
        from mcp.shared.auth import OAuthClientInformationFull, OAuthToken
        from mcp.server import MCPServer

        log_path, options = sys.argv[1], json.loads(sys.argv[2])
        log = open(log_path, "a")
        def note(**event):
            log.write(json.dumps(event) + "\n"); log.flush()

        def bound():
            sock = socket.socket(); sock.bind(("127.0.0.1", 0)); sock.listen(16); return sock
        as_sock, rs_sock = bound(), bound()
        AS_URL = f"http://127.0.0.1:{as_sock.getsockname()[1]}"
        RS_URL = f"http://127.0.0.1:{rs_sock.getsockname()[1]}/mcp"
        ISSUER = str(AnyHttpUrl(AS_URL))

        class LoopbackClient(OAuthClientInformationFull):
            """A client whose loopback redirect URI may use any port (RFC 8252, section 7.3)."""
            def validate_redirect_uri(self, redirect_uri):
                if redirect_uri is not None and str(redirect_uri).startswith("http://127.0.0.1:") and str(redirect_uri).endswith("/callback"):
                    return redirect_uri
                return super().validate_redirect_uri(redirect_uri)

        class Provider:
            def __init__(self):
                self.clients, self.codes, self.access, self.refresh = {}, {}, {}, {}
                pre = options.get("preregistered")
                if pre:
                    self.clients[pre["client_id"]] = LoopbackClient(client_id=pre["client_id"], client_secret=pre.get("client_secret"),
                        redirect_uris=["http://127.0.0.1:1/callback"], token_endpoint_auth_method=pre.get("method", "client_secret_basic"),
                        grant_types=["authorization_code", "refresh_token"], response_types=["code"], scope="notes:read")
            async def get_client(self, client_id): return self.clients.get(client_id)
            async def register_client(self, info):
                note(event="register", application_type=getattr(info, "application_type", None), redirect_uris=[str(u) for u in info.redirect_uris or []])
                self.clients[info.client_id] = info
            async def authorize(self, client, params):
                code = secrets.token_urlsafe(16)
                self.codes[code] = AuthorizationCode(code=code, scopes=params.scopes or [], expires_at=time.time() + 300,
                    client_id=client.client_id, code_challenge=params.code_challenge, redirect_uri=params.redirect_uri,
                    redirect_uri_provided_explicitly=params.redirect_uri_provided_explicitly, resource=params.resource, subject="alice")
                note(event="authorize", client_id=client.client_id, resource=params.resource, scopes=params.scopes)
                iss = {"right": ISSUER, "wrong": "http://127.0.0.1:1/", "none": None}[options.get("iss", "right")]
                extra = {"iss": iss} if iss else {}
                return construct_redirect_uri(str(params.redirect_uri), code=code, state=params.state, **extra)
            async def load_authorization_code(self, client, code): return self.codes.get(code)
            def issue(self, client_id, scopes, resource, subject):
                at, rt = "at_" + secrets.token_urlsafe(12), "rt_" + secrets.token_urlsafe(12)
                self.access[at] = AccessToken(token=at, client_id=client_id, scopes=scopes, expires_at=int(time.time()) + 3600, resource=resource, subject=subject)
                self.refresh[rt] = RefreshToken(token=rt, client_id=client_id, scopes=scopes, resource=resource, subject=subject)
                return OAuthToken(access_token=at, token_type="Bearer", expires_in=options.get("expires_in", 3600), scope=" ".join(scopes), refresh_token=rt)
            async def exchange_authorization_code(self, client, code):
                note(event="redeem", client_id=client.client_id)
                del self.codes[code.code]
                return self.issue(client.client_id, code.scopes, code.resource, code.subject)
            async def load_refresh_token(self, client, token): return self.refresh.get(token)
            async def exchange_refresh_token(self, client, rt, scopes):
                note(event="refresh", refresh_token=rt.token)
                del self.refresh[rt.token]
                return self.issue(client.client_id, scopes or rt.scopes, rt.resource, rt.subject)
            async def load_access_token(self, token): return self.access.get(token)
            async def revoke_token(self, token): pass

        provider = Provider()
        as_app = Starlette(routes=create_auth_routes(provider, AnyHttpUrl(AS_URL),
            client_registration_options=ClientRegistrationOptions(enabled=not options.get("no_registration"), valid_scopes=["notes:read", "notes:write"], default_scopes=["notes:read"]),
            revocation_options=RevocationOptions(enabled=True)))

        class Verifier(TokenVerifier):
            async def verify_token(self, token): return provider.access.get(token)

        rs = MCPServer("notes", token_verifier=Verifier(), auth=AuthSettings(issuer_url=AnyHttpUrl(AS_URL),
            resource_server_url=AnyHttpUrl(RS_URL), required_scopes=["notes:read"], validate_token_resource=True))

        @rs.tool()
        def add(a: int, b: int) -> str:
            """Adds two whole numbers."""
            return str(a + b)

        def logged(app, name):
            async def wrapper(scope, receive, send):
                if scope["type"] == "http":
                    headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
                    async def sending(message):
                        if message["type"] == "http.response.start":
                            note(server=name, method=scope["method"], path=scope["path"], authorization=headers.get("authorization"), mcp_method=headers.get("mcp-method"), status=message["status"])
                        await send(message)
                    return await app(scope, receive, sending)
                return await app(scope, receive, send)
            return wrapper

        print(as_sock.getsockname()[1], rs_sock.getsockname()[1], flush=True)
        async def main():
            servers = [uvicorn.Server(uvicorn.Config(logged(as_app, "as"), log_level="warning")),
                       uvicorn.Server(uvicorn.Config(logged(rs.streamable_http_app(), "rs"), log_level="warning"))]
            await asyncio.gather(servers[0].serve(sockets=[as_sock]), servers[1].serve(sockets=[rs_sock]))
        asyncio.run(main())
        """#

    private let process: Process
    /// The authorization server's port and the MCP server's, on 127.0.0.1.
    public let authorizationPort: Int
    public let resourcePort: Int
    private let logPath: String

    /// Starts them off the test pool (their start reads the servers' first line, a second or more).
    public static func start(options: String = "{}") async throws -> OAuthTestServers {
        try await OffThePool.run { try OAuthTestServers(options: options) }
    }

    /// Starts both, with `options` (a JSON object, see above).
    public init(options: String = "{}") throws {
        let venv = try MCPTestVenv.directory.get()
        logPath =
            FileManager.default.temporaryDirectory.appendingPathComponent("chat-oauth-\(UUID().uuidString)").path
        // The first line holds both ports, once they listen.
        let (process, ports) = try ListeningProcess.start(
            venv + "/bin/python3", ["-c", Self.script, logPath, options], ports: 2,
            failure: "the OAuth test servers did not start")
        self.process = process
        (authorizationPort, resourcePort) = (ports[0], ports[1])
    }

    /// The MCP endpoint.
    public var url: String { "http://127.0.0.1:\(resourcePort)/mcp" }
    /// The issuer, as its metadata says it (with the `/` pydantic adds).
    public var issuer: String { "http://127.0.0.1:\(authorizationPort)/" }

    /// Every line of its log, as JSON objects.
    public var events: [[String: Any]] {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The steps of the authorization server named `event` (`register`, `authorize`, `redeem`,
    /// `refresh`).
    public func steps(_ event: String) -> [[String: Any]] {
        events.filter { $0["event"] as? String == event }
    }

    /// The requests the MCP server answered.
    public var resourceRequests: [[String: Any]] {
        events.filter { $0["server"] as? String == "rs" }
    }

    /// SIGKILL (a child of Foundation's `Process` inherits the test thread's blocked signals).
    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: logPath)
    }
}
