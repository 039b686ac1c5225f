import ChatTestSupport
import Foundation
import Testing

/// An MCP server written with the PyPI `mcp` SDK, over stdio: its tool `shoot` gives text and two
/// images (a PNG of 13 bytes, a GIF of 12), or, asked to fail, an error result.
private let shotsServer = #"""
    import base64
    from mcp import types
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    server = MCPServer("shots")

    @server.tool()
    def shoot(fail: bool = False) -> list[types.ContentBlock]:
        """Takes two pictures."""
        if fail:
            raise ToolError("the camera is off")
        png = base64.b64encode(bytes.fromhex("89504e470d0a1a0a") + b"first").decode()
        gif = base64.b64encode(b"GIF89asecond").decode()
        return [types.TextContent(type="text", text="Two shots."),
                types.ImageContent(type="image", data=png, mime_type="image/png"),
                types.ImageContent(type="image", data=gif, mime_type="image/gif")]

    server.run()
    """#

/// The server's images as `data:` URLs: its Base64 as it came.
private let pngURL = "data:image/png;base64,iVBORw0KGgpmaXJzdA=="
private let gifURL = "data:image/gif;base64,R0lGODlhc2Vjb25k"

/// An answer that calls `shoot` twice: `call_1` as it is, `call_2` asked to fail.
private let twoCalls = ServerStep.sse([
    #"{"choices":[{"index":0,"delta":{"role":"assistant","tool_calls":["#
        + #"{"index":0,"id":"call_1","type":"function","function":{"name":"shots__shoot","arguments":"{}"}},"#
        + #"{"index":1,"id":"call_2","type":"function","function":{"name":"shots__shoot","arguments":"{\"fail\":true}"}}"#
        + #"]},"finish_reason":null}]}"#,
    ServerStep.finishChunk("tool_calls"),
])

/// A config with the server as `shots`, and a profile `text` whose model takes no images.
private func shotsConfig(_ chat: ChatBinary) throws -> String {
    let script = chat.home + "/shots.py"
    try shotsServer.write(toFile: script, atomically: true, encoding: .utf8)
    let python = try MCPTestVenv.directory.get() + "/bin/python3"
    return try chat.writeConfig(
        #"{"mcp_servers": {"shots": {"command": "\#(python)", "args": ["\#(script)"]}}, "#
            + #""profiles": {"text": {"images": false}}}"#)
}

/// A tool's images and errors end to end, through the built `chat`, a real MCP server from the
/// SDK and a scripted Chat Completions server: what the second request carries; an image a
/// person attaches for a model that takes none, refused before anything is sent.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct ToolResultImagesCommandTests {
    /// Runs `Shoot twice` with the server's tools, in `profile` if given; the second request's
    /// messages.
    private func shoot(profile: String? = nil) async throws -> [[String: Any]] {
        let chat = ChatBinary()
        let config = try shotsConfig(chat)
        let server = try LoopbackServer { _, index in
            index == 0 ? twoCalls : ServerStep.sse([ServerStep.chatChunk("A dot."), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let result = try await chat.run(
            ["--config", config, "--base-url", server.baseURL, "-T", "shots", "--yes-tools", "shots"]
                + (profile.map { ["--profile", $0] } ?? []) + ["Shoot twice"], timeout: 90)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "A dot.\n")
        #expect(server.requests.count == 2)
        let messages = try sentMessages(try server.request(1))
        #expect(messages.map { $0["role"] as? String }.prefix(4) == ["user", "assistant", "tool", "tool"])
        #expect(messages.dropFirst(2).prefix(2).map { $0["tool_call_id"] as? String } == ["call_1", "call_2"])
        // A failed call, said so in words: the tool message has no field for it.
        #expect(messages[3]["content"] as? String == "Error: Error executing tool shoot: the camera is off")
        return messages
    }

    @Test func aToolsImagesFollowItsResultsInAUserMessageOfTheSecondRequest() async throws {
        let messages = try await shoot()
        #expect(
            messages[2]["content"] as? String
                == "Two shots.\n[image/png, 13 bytes: sent in the next message]\n"
                + "[image/gif, 12 bytes: sent in the next message]")
        #expect(messages.count == 5)
        let images = try #require(messages.last)
        #expect(images["role"] as? String == "user")
        let parts = try #require(images["content"] as? [[String: Any]])
        #expect(
            parts.map { ($0["text"] as? String) ?? (($0["image_url"] as? [String: Any])?["url"] as? String) ?? "?" }
                == [
                    "Images from the tool results above:", "image 1 of call_1 (shots__shoot):", pngURL,
                    "image 2 of call_1 (shots__shoot):", gifURL,
                ])
    }

    @Test func aProfileWhoseModelTakesNoImagesSendsTheNotesAlone() async throws {
        let messages = try await shoot(profile: "text")
        #expect(
            messages[2]["content"] as? String
                == "Two shots.\n[image/png, 13 bytes: not sent, this model takes no images (images: false)]\n"
                + "[image/gif, 12 bytes: not sent, this model takes no images (images: false)]")
        #expect(messages.count == 4)
    }

    @Test func anImageAttachedForAModelThatTakesNoneIsRefusedBeforeAnythingIsSent() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("Text only."), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        let picture = chat.home + "/picture.png"
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]).write(to: URL(fileURLWithPath: picture))
        let line =
            "\(picture) is an image, and this profile's model takes no images (images: false in the config): use a "
            + "profile whose model does, e.g. --profile NAME, or set images to true in this profile"
        // The built-in local profile's model takes none.
        let refused = try await chat.run([
            "--profile", "local", "--base-url", server.baseURL, "-f", picture, "What is it?",
        ])
        #expect(refused.status == 2)
        #expect(refused.stderr == "chat: error: \(line)\n")
        #expect(refused.stdout == "")
        #expect(server.requests.isEmpty)
        #expect(try await chat.run(["--list", "--all"]).stdout == "")

        // In the REPL, /file says so and attaches nothing; the message goes without it.
        let repl = try await chat.run(
            ["--profile", "local", "--base-url", server.baseURL, "-i"], input: "/file \(picture)\nWhat is it?\n")
        #expect(repl.status == 0, "\(repl.stderr)")
        #expect(repl.stderr.contains("\(line); nothing attached"), "\(repl.stderr)")
        #expect(server.requests.count == 1)
        let sent = try sentMessages(try server.request(0))
        #expect(sent.last?["content"] as? String == "What is it?")
    }
}
