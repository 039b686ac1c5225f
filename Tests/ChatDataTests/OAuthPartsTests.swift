import ChatDomain
import ChatPresentation
import Foundation
import Testing

@testable import ChatJSON
@testable import ChatMCP
@testable import ChatOAuth
@testable import ChatSystem

/// The pieces of a sign-in that need no server: the `WWW-Authenticate` parser, the well-known
/// URLs, scope selection, PKCE and base64url against RFC 7636's vectors, the callback's checks,
/// form encoding, the token file, the browser's command line, and an entry's sign-in keys.
@Suite("OAuth parts")
struct OAuthPartsTests {
    // MARK: WWW-Authenticate

    @Test("the spec's challenge, folded over lines")
    func specChallenge() {
        let field = """
            Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource",
                                     scope="files:read"
            """
        let challenge = BearerChallenge(field: field)
        #expect(challenge?.resourceMetadata == "https://mcp.example.com/.well-known/oauth-protected-resource")
        #expect(challenge?.scope == "files:read")
        #expect(challenge?.scopes == ["files:read"])
    }

    @Test("quoted strings keep commas and undo escapes; tokens stand unquoted; names in any case")
    func quotedStrings() {
        let challenge = BearerChallenge(
            field:
                #"Bearer error="insufficient_scope", ERROR_description="needs \"files:write\", then retry", scope=files:write"#
        )
        #expect(challenge?.error == "insufficient_scope")
        #expect(challenge?.errorDescription == #"needs "files:write", then retry"#)
        #expect(challenge?.scope == "files:write")
    }

    @Test("several challenges in one field: the Bearer one is read, a token68 is not a parameter")
    func severalChallenges() {
        let parsed = AuthChallenge.parse(
            #"Basic dXNlcjpwYXNz==, Newauth realm="apps", type=1, title="Login to \"apps\"", Bearer scope="a b", resource_metadata="https://x/.well-known/oauth-protected-resource""#
        )
        #expect(parsed.map(\.scheme) == ["basic", "newauth", "bearer"])
        #expect(parsed[0].token68 == "dXNlcjpwYXNz==" && parsed[0].parameters.isEmpty)
        #expect(parsed[1].parameters == ["realm": "apps", "type": "1", "title": #"Login to "apps""#])
        #expect(parsed[2].parameters["scope"] == "a b")
        let bearer = BearerChallenge(field: #"Basic realm="x", Bearer scope="a b""#)
        #expect(bearer?.scopes == ["a", "b"])
        #expect(BearerChallenge(field: #"Basic realm="only""#) == nil)
        #expect(BearerChallenge(field: nil) == nil)
    }

    @Test("the MCP SDK's challenge, with no scope")
    func sdkChallenge() {
        let challenge = BearerChallenge(
            field:
                #"Bearer error="invalid_token", error_description="Authentication required", resource_metadata="http://127.0.0.1:9101/.well-known/oauth-protected-resource/mcp""#
        )
        #expect(challenge?.resourceMetadata == "http://127.0.0.1:9101/.well-known/oauth-protected-resource/mcp")
        #expect(challenge?.scope == nil && challenge?.scopes == nil)
        #expect(challenge?.error == "invalid_token")
    }

    // MARK: Well-known URLs

    @Test("protected-resource metadata: the path inserted, then the root")
    func protectedResourceURLs() {
        #expect(
            WellKnownURL.protectedResource(for: "https://example.com/public/mcp?x=1") == [
                "https://example.com/.well-known/oauth-protected-resource/public/mcp",
                "https://example.com/.well-known/oauth-protected-resource",
            ])
        #expect(
            WellKnownURL.protectedResource(for: "http://127.0.0.1:9101/") == [
                "http://127.0.0.1:9101/.well-known/oauth-protected-resource"
            ])
    }

    @Test("authorization-server metadata: the spec's orders with a path and without")
    func authorizationServerURLs() {
        #expect(
            WellKnownURL.authorizationServer(for: "https://auth.example.com/tenant1") == [
                "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
                "https://auth.example.com/.well-known/openid-configuration/tenant1",
                "https://auth.example.com/tenant1/.well-known/openid-configuration",
            ])
        #expect(
            WellKnownURL.authorizationServer(for: "https://auth.example.com") == [
                "https://auth.example.com/.well-known/oauth-authorization-server",
                "https://auth.example.com/.well-known/openid-configuration",
            ])
        // The trailing slash pydantic adds is not a path.
        #expect(
            WellKnownURL.authorizationServer(for: "http://127.0.0.1:9100/") == [
                "http://127.0.0.1:9100/.well-known/oauth-authorization-server",
                "http://127.0.0.1:9100/.well-known/openid-configuration",
            ])
        #expect(WellKnownURL.authorizationServer(for: "not a url").isEmpty)
    }

    // MARK: Scopes

    @Test("scopes: the entry's, else the challenge's, else the metadata's, else none")
    func scopeSelection() {
        #expect(ScopeSelection.initial(configured: ["mine"], challenge: ["c"], supported: ["s"]) == ["mine"])
        #expect(ScopeSelection.initial(configured: nil, challenge: ["c"], supported: ["s"]) == ["c"])
        #expect(ScopeSelection.initial(configured: [], challenge: nil, supported: ["s", "t"]) == ["s", "t"])
        #expect(ScopeSelection.initial(configured: nil, challenge: nil, supported: nil) == nil)
        #expect(
            ScopeSelection.stepUp(previous: ["read"], challenge: ["write", "read"], supported: ["x"]) == [
                "read", "write",
            ])
        #expect(
            ScopeSelection.stepUp(previous: ["read"], challenge: nil, supported: ["read", "admin"]) == [
                "read", "admin",
            ])
    }

    // MARK: PKCE and base64url

    @Test("PKCE S256: RFC 7636 appendix B")
    func pkceVector() {
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let random = PKCE.random()
        #expect(random.verifier.count == 43)
        #expect(random.verifier != PKCE.random().verifier)
        #expect(random.verifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test("base64url: RFC 7636 appendix A, and no padding")
    func base64URL() {
        #expect(Base64URL.encode([3, 236, 255, 224, 193]) == "A-z_4ME")
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.encode([]) == "")
        #expect(Base64URL.encode(Array("f".utf8)) == "Zg")
    }

    // MARK: The callback

    private func query(_ text: String) -> [(name: String, value: String)] {
        FormEncoding.decode(Substring(text))
    }

    @Test("the callback: iss byte for byte, then state, then the code")
    func callbackChecks() {
        let issuer = "http://127.0.0.1:9100/"
        let good = query("code=abc&state=s1&iss=http%3A%2F%2F127.0.0.1%3A9100%2F")
        #expect(CallbackCheck.code(in: good, state: "s1", issuer: issuer, issuerRequired: false) == .success("abc"))
        // No trailing-slash or case normalisation.
        let slashless = query("code=abc&state=s1&iss=http%3A%2F%2F127.0.0.1%3A9100")
        #expect(
            CallbackCheck.code(in: slashless, state: "s1", issuer: issuer, issuerRequired: false)
                == .failure(.wrongIssuer(expected: issuer, found: "http://127.0.0.1:9100")))
        let upper = query("code=abc&state=s1&iss=HTTP%3A%2F%2F127.0.0.1%3A9100%2F")
        #expect(CallbackCheck.code(in: upper, state: "s1", issuer: issuer, issuerRequired: false) != .success("abc"))
        // Absent: refused only where the server promised it.
        let without = query("code=abc&state=s1")
        #expect(CallbackCheck.code(in: without, state: "s1", issuer: issuer, issuerRequired: false) == .success("abc"))
        #expect(
            CallbackCheck.code(in: without, state: "s1", issuer: issuer, issuerRequired: true)
                == .failure(.wrongIssuer(expected: issuer, found: nil)))
        // A wrong iss is refused before its error words are shown.
        let forged = query("error=access_denied&state=s1&iss=https%3A%2F%2Fevil")
        #expect(
            CallbackCheck.code(in: forged, state: "s1", issuer: issuer, issuerRequired: false)
                == .failure(.wrongIssuer(expected: issuer, found: "https://evil")))
        #expect(
            CallbackCheck.code(in: query("code=abc&state=other"), state: "s1", issuer: issuer, issuerRequired: false)
                == .failure(.wrongState))
        #expect(
            CallbackCheck.code(
                in: query("code=abc&state=s1&state=s1"), state: "s1", issuer: issuer, issuerRequired: false)
                == .failure(.wrongState))
        #expect(
            CallbackCheck.code(
                in: query("error=access_denied&error_description=no+thanks&state=s1"), state: "s1", issuer: issuer,
                issuerRequired: false)
                == .failure(.authorizationRefused(error: "access_denied", description: "no thanks")))
        #expect(
            CallbackCheck.code(in: query("state=s1"), state: "s1", issuer: issuer, issuerRequired: false)
                == .failure(.noCode))
    }

    @Test("form encoding: unreserved bytes kept, the rest escaped, + and %XX read back")
    func formEncoding() {
        #expect(FormEncoding.escape("a b/c:d~e_f.g-h") == "a%20b%2Fc%3Ad~e_f.g-h")
        #expect(
            FormEncoding.encode([("scope", "notes:read notes:write"), ("x", "é")])
                == "scope=notes%3Aread%20notes%3Awrite&x=%C3%A9")
        let pairs = FormEncoding.decode("a=1+2&b=%C3%A9&c&d=%zz")
        #expect(pairs.map(\.name) == ["a", "b", "c", "d"])
        #expect(pairs.map(\.value) == ["1 2", "é", "", "%zz"])
    }

    // MARK: The token file

    private func record(_ server: String, issuer: String, access: String, refresh: String?, at: Double) -> TokenRecord {
        TokenRecord(
            server: server, issuer: issuer,
            client: RegisteredClient(
                kind: .dynamic, clientID: "c1", authMethod: "none", redirectURI: "http://127.0.0.1:1/callback"),
            tokenEndpoint: "http://127.0.0.1:9/token", resource: server, scopes: ["read"],
            grant: TokenGrant(accessToken: access, refreshToken: refresh, expiresAt: 2_000_000_000), savedAt: at)
    }

    @Test("the token file: 0600, keyed by server and issuer, the newest used, refused when others can read it")
    func tokenStore() throws {
        let home = NSTemporaryDirectory() + "chat-oauth-store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: home) }
        let directory = try #require(DataDirectory(environment: ["XDG_DATA_HOME": home]))
        let store = TokenStore(directory: directory)
        #expect(try store.records().isEmpty)
        try store.save(record("http://a/mcp", issuer: "https://i1", access: "at1", refresh: "rt1", at: 1))
        try store.save(record("http://a/mcp", issuer: "https://i2", access: "at2", refresh: "rt2", at: 2))
        try store.save(record("http://b/mcp", issuer: "https://i1", access: "atb", refresh: nil, at: 3))
        #expect(FileSystem.mode(store.path) == 0o600)
        #expect(try store.record(for: "http://a/mcp")?.accessToken == "at2")
        #expect(try store.record(for: "http://a/mcp", issuer: "https://i1")?.refreshToken == "rt1")
        // A rotated pair replaces the old one for its server and issuer.
        try store.save(record("http://a/mcp", issuer: "https://i1", access: "at1b", refresh: "rt1b", at: 4))
        #expect(try store.records().count == 3)
        #expect(try store.record(for: "http://a/mcp", issuer: "https://i1")?.refreshToken == "rt1b")
        let kept = try store.record(for: "http://a/mcp")
        #expect(kept?.client.redirectURI == "http://127.0.0.1:1/callback" && kept?.scopes == ["read"])

        chmod(store.path, 0o640)
        #expect(throws: SignInFailure.storeNotPrivate(path: store.path, mode: 0o640)) { try store.records() }
        chmod(store.path, 0o600)
        #expect(try store.forget(server: "http://a/mcp") == 2)
        #expect(try store.forget(server: "http://a/mcp") == 0)
        #expect(try store.forget(server: "http://b/mcp") == 1)
        #expect(!FileSystem.exists(store.path))
    }

    // MARK: The browser

    @Test("BROWSER: %s stands for the URL (quoted), %% for %, else the URL goes last")
    func browserCommandLine() {
        let url = "http://127.0.0.1:9/a?x=1&y='2'"
        #expect(BrowserOpener.commandLine("firefox", url: url) == #"firefox 'http://127.0.0.1:9/a?x=1&y='\''2'\'''"#)
        #expect(
            BrowserOpener.commandLine("open -a %s --100%%", url: "http://x")
                == "open -a 'http://x' --100%")
        #expect(BrowserOpener(environment: ["BROWSER": "a:b %s:", "DISPLAY": ":0"]).commands == ["a", "b %s"])
        #expect(BrowserOpener(environment: ["DISPLAY": ":0"]).commands == ["xdg-open %s"])
        #expect(BrowserOpener(environment: ["WAYLAND_DISPLAY": "wayland-0"]).commands == ["xdg-open %s"])
        #expect(!BrowserOpener(environment: ["HOME": "/h"]).isAvailable)
    }

    @Test("BROWSER: each command in turn until one succeeds")
    func browserTriesInTurn() throws {
        let directory = NSTemporaryDirectory() + "chat-browser-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let opener = BrowserOpener(environment: [
            "BROWSER": "false:printf %s >\(directory)/second:printf x >\(directory)/third", "PATH": "/usr/bin:/bin",
        ])
        #expect(opener.open("http://127.0.0.1:9/cb?a=1&b=2"))
        #expect(try String(contentsOfFile: directory + "/second", encoding: .utf8) == "http://127.0.0.1:9/cb?a=1&b=2")
        #expect(!FileManager.default.fileExists(atPath: directory + "/third"))
        #expect(!BrowserOpener(environment: ["BROWSER": "false:/no/such/browser"]).open("http://x"))
    }

    // MARK: The entry

    @Test("an entry's sign-in keys: oauth with ${VAR} expanded, client_metadata_url; wrong shapes named")
    func entryKeys() throws {
        let read = MCPServerEntry.entries(
            in: try JSONParser.parse(
                #"""
                {"a": {"url": "https://a/mcp", "oauth": {"client_id": "id-${WHO}", "client_secret": "${SECRET}", "scopes": ["r", "w"]}},
                 "b": {"url": "https://b/mcp", "client_metadata_url": "https://chat.example/client.json"},
                 "c": {"url": "https://c/mcp", "oauth": {"client_id": 7}},
                 "d": {"url": "https://d/mcp", "client_metadata_url": "http://insecure/client.json"},
                 "e": {"url": "https://e/mcp", "oauth": {"client_secret": "${UNSET}"}}}
                """#), environment: ["WHO": "me", "SECRET": "s3cret"])
        #expect(read.entries.map(\.name) == ["a", "b"])
        #expect(
            read.entries[0].oauth == OAuthClientSettings(clientID: "id-me", clientSecret: "s3cret", scopes: ["r", "w"]))
        #expect(read.entries[1].clientMetadataURL == "https://chat.example/client.json")
        #expect(read.entries[1].oauthServer.url == "https://b/mcp")
        let lines = read.problems.map(ErrorWording.line(for:))
        #expect(
            lines == [
                #"MCP server "c": oauth must be an object with client_id and client_secret (strings) and scopes (a list of strings)"#,
                #"MCP server "d": client_metadata_url must be an https:// URL"#,
                #"MCP server "e": ${UNSET} is used but not set in the environment"#,
            ])
        #expect(!lines.joined().contains("s3cret"))
    }

    // MARK: Words

    @Test("each error path of a sign-in is one line, with what to do where there is something")
    func wording() {
        #expect(
            ErrorWording.line(for: SignInFailure.needsPreRegisteredClient)
                == "the server needs a pre-registered client: add oauth.client_id to its entry")
        #expect(
            ErrorWording.line(for: SignInFailure.noPKCE(issuer: "https://as"))
                == "its authorization server https://as does not support PKCE (S256), which MCP requires: chat does not sign in without it"
        )
        #expect(
            ErrorWording.line(for: SignInFailure.issuerMismatch(expected: "https://as", found: "https://other"))
                == "the metadata of authorization server https://as says its issuer is https://other: not used")
        #expect(ErrorWording.line(for: SignInFailure.declined) == "you said no to signing in")
        #expect(
            ErrorWording.line(for: SignInFailure.timedOut(minutes: 5))
                == "no answer came back from the browser within 5 minutes")
        #expect(
            ErrorWording.line(
                for: SignInFailure.tokenRefused(status: 400, error: "invalid_grant", description: "code expired"))
                == "the token endpoint refused (HTTP 400: invalid_grant: code expired)")
        let problem = ToolServerProblem(
            server: "my notes", step: .starting,
            failure: .signInNeeded(.refreshRefused(error: "invalid_grant", description: nil)), endpoint: "https://n/mcp"
        )
        #expect(
            ErrorWording.line(for: problem)
                == #"MCP server "my notes": https://n/mcp: its sign-in expired and could not be renewed (invalid_grant); sign in again with chat --tools-login 'my notes'"#
        )
        #expect(
            ErrorWording.text(for: .signInNeeded(.noTerminal)) == "it needs you to sign in",
            "the model is not told a command")
    }
}
