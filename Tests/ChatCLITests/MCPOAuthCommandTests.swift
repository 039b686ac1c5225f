import ChatTestSupport
import Foundation
import Testing

/// Signing in to an MCP server end to end on loopback, through the built `chat`: an authorization
/// server and the MCP server it protects, both written with the PyPI `mcp` SDK's own toolkit
/// (`OAuthTestServers`), and `BROWSER` set to a script of the tests' that follows the
/// authorization URL to chat's listener, as a browser would. Off a terminal throughout.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct MCPOAuthCommandTests {
    /// A chat with its own home, `BROWSER` the following script (`tamper`: it forges the state
    /// on its way back).
    private func signingChat(tamper: String? = nil, extra: [String: String] = [:]) throws -> ChatBinary {
        var chat = ChatBinary(environment: extra)
        let python = try MCPTestVenv.directory.get() + "/bin/python3"
        let browser = chat.home + "/browser.py"
        try """
        #!\(python)
        import http.client, sys, urllib.parse
        def get(url):
            u = urllib.parse.urlsplit(url)
            c = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
            c.request("GET", u.path + ("?" + u.query if u.query else ""))
            r = c.getresponse(); r.read(); return r
        location = get(sys.argv[1]).getheader("location")
        if not location: sys.exit(1)
        if \(tamper == "state" ? "True" : "False"):
            u = urllib.parse.urlsplit(location)
            q = [(k, "forged" if k == "state" else v) for k, v in urllib.parse.parse_qsl(u.query)]
            location = urllib.parse.urlunsplit(u._replace(query=urllib.parse.urlencode(q)))
        get(location)
        """.write(toFile: browser, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: browser)
        chat.environment["BROWSER"] = browser
        return chat
    }

    /// A config with `notes` at `url` (its entry's other keys `entry`), and `extra` entries.
    private func notesConfig(_ chat: ChatBinary, url: String, entry: String = "", extra: String = "") throws -> String {
        try chat.writeConfig(#"{"mcp_servers": {"notes": {"url": "\#(url)"\#(entry)}\#(extra)}}"#)
    }

    private func tokenFile(_ chat: ChatBinary) -> String { chat.home + "/data/chat/oauth-tokens.json" }

    /// The one record of the token file.
    private func record(_ chat: ChatBinary) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: tokenFile(chat)))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let servers = try #require(object["servers"] as? [[String: Any]])
        #expect(servers.count == 1)
        return try #require(servers.first)
    }

    /// Every file's bytes under `directory`, but the token file, as text.
    private func otherFiles(_ chat: ChatBinary) -> String {
        let directory = chat.home
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        return files.filter { !$0.hasSuffix("oauth-tokens.json") }
            .compactMap { FileManager.default.contents(atPath: directory + "/" + $0) }
            .map { String(decoding: $0, as: UTF8.self) }.joined()
    }

    @Test func toolsLoginKeepsTheTokensPrivateAndTheNextRunCallsTheToolWithThem() async throws {
        let servers = try await OAuthTestServers.start()
        defer { servers.stop() }
        let other = try await PythonMCPServer.start(mode: "json")
        defer { other.stop() }
        let chat = try signingChat()
        let config = try notesConfig(chat, url: servers.url, extra: #", "docs": {"url": "\#(other.url)"}"#)

        let login = try await chat.run(["--config", config, "--tools-login", "notes"], timeout: 60)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.stdout == "signed in to notes\n")
        // Dynamic registration as a native client, for the listener's loopback callback; the
        // resource and the scope the server's metadata lists, asked for.
        let registered = try #require(servers.steps("register").first)
        #expect(registered["application_type"] as? String == "native")
        let redirect = try #require((registered["redirect_uris"] as? [String])?.first)
        #expect(redirect.hasPrefix("http://127.0.0.1:") && redirect.hasSuffix("/callback"))
        let authorized = try #require(servers.steps("authorize").first)
        #expect(authorized["resource"] as? String == servers.url)
        #expect(authorized["scopes"] as? [String] == ["notes:read"])
        #expect(servers.steps("redeem").count == 1)

        // The token file: its own, 0600, keyed by the server and the issuer.
        let mode = try FileManager.default.attributesOfItem(atPath: tokenFile(chat))[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let kept = try record(chat)
        #expect(kept["server"] as? String == servers.url)
        #expect(kept["issuer"] as? String == servers.issuer)
        let token = try #require(kept["access_token"] as? String)
        let refresh = try #require(kept["refresh_token"] as? String)

        // The next run calls the tool with it; the other server, on another port, never sees it.
        let beforeRun = servers.resourceRequests.count
        let model = try LoopbackServer { request, _ in
            request.bodyText.contains(#""name":"notes__add""#) && !request.bodyText.contains(#""role":"tool""#)
                ? toolCallAnswer("notes__add", arguments: #"{"a": 20261126, "b": 4242}"#)
                : ServerStep.sse([ServerStep.chatChunk("Added."), ServerStep.finishChunk()])
        }
        defer { model.stop() }
        let run = try await chat.run(
            [
                "--config", config, "--base-url", model.baseURL, "-T", "notes,docs", "--yes-tools", "notes", "-v",
                "Add them",
            ], timeout: 90)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Added.\n")
        let last = try #require(model.requests.last)
        let result = try #require(try sentMessages(last).last)
        #expect(result["content"] as? String == "20265368")
        let sent = servers.resourceRequests.compactMap { $0["authorization"] as? String }
        #expect(!sent.isEmpty && sent.allSatisfy { $0 == "Bearer \(token)" }, "\(sent)")
        // Signed in, the server's era was probed with the token: 2026-07-28 (the SDK's server
        // answers server/discover), every request of the run a modern one (no initialize).
        let methods = servers.resourceRequests.dropFirst(beforeRun).filter { $0["method"] as? String == "POST" }.map {
            ($0["mcp_method"] as? String ?? "-", $0["status"] as? Int ?? 0)
        }
        #expect(methods.first.map { $0 == ("server/discover", 200) } == true, "\(methods)")
        #expect(methods.contains { $0 == ("tools/call", 200) } && methods.allSatisfy { $0.0 != "-" }, "\(methods)")
        let elsewhere = other.requestLines.compactMap { JSONValueLine($0) }
        #expect(!elsewhere.isEmpty)
        #expect(elsewhere.allSatisfy { $0["authorization"] is NSNull }, "\(other.requestLines)")
        // `-v` shows the header redacted; no output, log or other file holds a token.
        #expect(run.stderr.contains("> Authorization: [redacted]\n"), "\(run.stderr)")
        for text in [login.stdout, login.stderr, run.stdout, run.stderr, otherFiles(chat)] {
            #expect(!text.contains(token) && !text.contains(refresh))
        }
    }

    @Test func anExpiredTokenIsRefreshedAndTheRotatedRefreshTokenKept() async throws {
        let servers = try await OAuthTestServers.start()
        defer { servers.stop() }
        let chat = try signingChat()
        let config = try notesConfig(chat, url: servers.url)
        let login = try await chat.run(["--config", config, "--tools-login", "notes"], timeout: 60)
        #expect(login.status == 0, "\(login.stderr)")
        // Its expiry moved into the past, as time would.
        var kept = try record(chat)
        let (oldAccess, oldRefresh) = (kept["access_token"] as? String, kept["refresh_token"] as? String)
        kept["expires_at"] = 1
        let file = ["version": 1, "servers": [kept]] as [String: Any]
        try JSONSerialization.data(withJSONObject: file).write(to: URL(fileURLWithPath: tokenFile(chat)))

        let listed = try await chat.run(["--config", config, "--tools-list", "-T", "notes"], timeout: 60)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("add"), "\(listed.stdout)")
        #expect(listed.stderr.isEmpty, "\(listed.stderr)")
        // Refreshed before the first request, with the refresh token kept; the new pair kept.
        #expect(servers.steps("refresh").map { $0["refresh_token"] as? String } == [oldRefresh])
        let now = try record(chat)
        let (newAccess, newRefresh) = (now["access_token"] as? String, now["refresh_token"] as? String)
        #expect(newAccess != nil && newAccess != oldAccess)
        #expect(newRefresh != nil && newRefresh != oldRefresh)
        let sent = servers.resourceRequests.compactMap { $0["authorization"] as? String }
        #expect(sent.allSatisfy { $0 == "Bearer \(newAccess ?? "")" }, "\(sent)")
        let mode = try FileManager.default.attributesOfItem(atPath: tokenFile(chat))[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aRejectedTokenIsRefreshedOnceAfterThe401() async throws {
        let servers = try await OAuthTestServers.start()
        defer { servers.stop() }
        let chat = try signingChat()
        let config = try notesConfig(chat, url: servers.url)
        #expect(try await chat.run(["--config", config, "--tools-login", "notes"], timeout: 60).status == 0)
        // A token the server no longer takes, not yet expired by its date.
        let text = try String(contentsOfFile: tokenFile(chat), encoding: .utf8)
        let old = try #require(try record(chat)["access_token"] as? String)
        try text.replacingOccurrences(of: old, with: "at_revoked").write(
            toFile: tokenFile(chat), atomically: false, encoding: .utf8)
        let before = servers.resourceRequests.count

        let listed = try await chat.run(["--config", config, "--tools-list", "-T", "notes"], timeout: 60)
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.stdout.contains("add"), "\(listed.stdout)")
        #expect(servers.steps("refresh").count == 1)
        let statuses = servers.resourceRequests.dropFirst(before).map {
            ($0["authorization"] as? String, $0["status"] as? Int)
        }
        // The refused token once, then the refreshed one on every request.
        #expect(statuses.first?.0 == "Bearer at_revoked" && statuses.first?.1 == 401, "\(statuses)")
        #expect(statuses.dropFirst().allSatisfy { $0.0 != "Bearer at_revoked" && $0.0?.hasPrefix("Bearer ") == true })
    }

    @Test func toolsLogoutRemovesTheTokens() async throws {
        let servers = try await OAuthTestServers.start()
        defer { servers.stop() }
        let chat = try signingChat()
        let config = try notesConfig(chat, url: servers.url)
        #expect(try await chat.run(["--config", config, "--tools-login", "notes"], timeout: 60).status == 0)
        #expect(FileManager.default.fileExists(atPath: tokenFile(chat)))

        let out = try await chat.run(["--config", config, "--tools-logout", "notes"])
        #expect(out.status == 0, "\(out.stderr)")
        #expect(out.stdout == "signed out of notes: its tokens are removed\n")
        #expect(!FileManager.default.fileExists(atPath: tokenFile(chat)))
        let again = try await chat.run(["--config", config, "--tools-logout", "notes"])
        #expect(again.status == 0)
        #expect(again.stdout == "no sign-in was kept for notes\n")
        // Signed out, a run off a terminal says how to sign in again.
        let listed = try await chat.run(["--config", config, "--tools-list", "-T", "notes"], timeout: 60)
        #expect(listed.stderr.contains("run chat --tools-login notes"), "\(listed.stderr)")
    }

    @Test func aPreRegisteredClientIsUsedAsConfigured() async throws {
        let secret = "s3cret-\(UUID().uuidString.prefix(8))"
        let servers = try await OAuthTestServers.start(
            options: #"{"preregistered": {"client_id": "chat-pre", "client_secret": "\#(secret)"}}"#)
        defer { servers.stop() }
        let chat = try signingChat(extra: ["NOTES_SECRET": secret])
        let config = try notesConfig(
            chat, url: servers.url,
            entry:
                #", "oauth": {"client_id": "chat-pre", "client_secret": "${NOTES_SECRET}", "scopes": ["notes:read"]}"#
        )
        let login = try await chat.run(["--config", config, "--tools-login", "notes"], timeout: 60)
        #expect(login.status == 0, "\(login.stderr)")
        #expect(servers.steps("register").isEmpty)
        #expect(servers.steps("authorize").first?["client_id"] as? String == "chat-pre")
        #expect(servers.steps("redeem").first?["client_id"] as? String == "chat-pre")
        let listed = try await chat.run(["--config", config, "--tools-list", "-T", "notes"], timeout: 60)
        #expect(listed.stdout.contains("add"), "\(listed.stderr)")
        for text in [login.stdout, login.stderr, listed.stdout, listed.stderr, otherFiles(chat)] {
            #expect(!text.contains(secret))
        }
    }

    /// `stderr` without the note that chat waits for the browser: said once the browser opener
    /// returns, which the test's browser (a script that calls back at once) may or may not
    /// outrun, so it is there in some runs and not in others.
    static func withoutWaitingNote(_ stderr: String) -> String {
        stderr.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("chat: signing in to notes in the browser; waiting for it") }
            .joined(separator: "\n")
    }

    @Test func aWrongStateIsRefusedAndTheCodeNeverRedeemed() async throws {
        let servers = try await OAuthTestServers.start()
        defer { servers.stop() }
        let chat = try signingChat(tamper: "state")
        let config = try notesConfig(chat, url: servers.url)
        let login = try await chat.run(["--config", config, "--tools-login", "notes"], timeout: 60)
        #expect(login.status == 1)
        #expect(
            Self.withoutWaitingNote(login.stderr)
                == "chat: error: could not sign in to notes: the browser came back with a state that is not the one "
                + "chat sent: refused, the code not used\n")
        #expect(servers.steps("authorize").count == 1)
        #expect(servers.steps("redeem").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: tokenFile(chat)))
    }

    @Test func aWrongIssuerIsRefusedAndTheCodeNeverRedeemed() async throws {
        let servers = try await OAuthTestServers.start(options: #"{"iss": "wrong"}"#)
        defer { servers.stop() }
        let chat = try signingChat()
        let config = try notesConfig(chat, url: servers.url)
        let login = try await chat.run(["--config", config, "--tools-login", "notes"], timeout: 60)
        #expect(login.status == 1)
        #expect(
            Self.withoutWaitingNote(login.stderr)
                == "chat: error: could not sign in to notes: the browser came back from issuer http://127.0.0.1:1/, "
                + "not \(servers.issuer): refused, the code not used\n")
        #expect(servers.steps("redeem").isEmpty)
        #expect(!FileManager.default.fileExists(atPath: tokenFile(chat)))
    }

    @Test func offATerminalARunSaysInOneLineHowToSignInAndGoesOnWithoutTheServer() async throws {
        let servers = try await OAuthTestServers.start()
        defer { servers.stop() }
        var chat = ChatBinary()
        let marker = chat.home + "/browser-started"
        chat.environment["BROWSER"] = "touch \(marker)"
        let config = try notesConfig(chat, url: servers.url)
        let model = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("No tools."), ServerStep.finishChunk()])
        }
        defer { model.stop() }
        let run = try await chat.run(
            ["--config", config, "--base-url", model.baseURL, "-T", "notes", "hello"], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "No tools.\n")
        #expect(
            run.stderr
                == "chat: warning: MCP server \"notes\": \(servers.url): it needs you to sign in: run chat "
                + "--tools-login notes\n")
        #expect(!FileManager.default.fileExists(atPath: marker), "no browser is started")
        #expect(servers.steps("authorize").isEmpty)
        #expect(!(try model.request(0)).bodyText.contains("\"tools\""))
        // The probe was refused (401): that is a sign-in wanted, not an era, so none is remembered.
        #expect(servers.resourceRequests.map { $0["mcp_method"] as? String } == ["server/discover"])
        #expect(servers.resourceRequests.map { $0["status"] as? Int } == [401])
        #expect(!FileManager.default.fileExists(atPath: chat.home + "/data/chat/mcp-eras.json"))
    }

    @Test func toolsLoginNamesAServerItCanSignInTo() async throws {
        let chat = ChatBinary()
        let config = try chat.writeConfig(
            #"{"mcp_servers": {"local": {"command": "/bin/true"}, "remote": {"url": "http://127.0.0.1:9/mcp"}}}"#)
        let stdio = try await chat.run(["--config", config, "--tools-login", "local"])
        #expect(stdio.status == 2)
        #expect(
            stdio.stderr
                == "chat: error: local is a stdio server: chat signs in only to HTTP servers (a stdio server takes "
                + "its credentials from its env)\n")
        let unknown = try await chat.run(["--config", config, "--tools-logout", "nope"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "chat: error: no MCP server \"nope\" in the config (local, remote are configured)\n")
        let words = try await chat.run(["--config", config, "--tools-login", "remote", "extra"])
        #expect(words.status == 2)
        #expect(words.stderr == "chat: error: unexpected \"extra\" after --tools-login SERVER\n")
    }

    @Test func aTokenFileOthersCanReadIsRefusedWithHowToFixIt() async throws {
        let servers = try await OAuthTestServers.start()
        defer { servers.stop() }
        let chat = try signingChat()
        let config = try notesConfig(chat, url: servers.url)
        #expect(try await chat.run(["--config", config, "--tools-login", "notes"], timeout: 60).status == 0)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: tokenFile(chat))
        let listed = try await chat.run(["--config", config, "--tools-list", "-T", "notes"], timeout: 60)
        #expect(
            listed.stderr
                == "chat: warning: MCP server \"notes\": \(servers.url): could not sign in: \(tokenFile(chat)) can be "
                + "read by others (mode 644): chat keeps sign-in tokens there and does not use it so; run chmod 600 "
                + "\(tokenFile(chat)); try chat --tools-login notes\n")
        #expect(servers.resourceRequests.allSatisfy { $0["authorization"] is NSNull })
    }
}

/// A JSON line of a server's log as an object.
private func JSONValueLine(_ line: String) -> [String: Any]? {
    try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
}
