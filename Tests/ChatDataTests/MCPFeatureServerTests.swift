import ChatDomain
import ChatTestSupport
import Foundation
import Synchronization
import Testing

@testable import ChatMCP

/// The progress a call was told, in order.
final class RecordedProgress: Sendable {
    private let list = Mutex<[ToolProgress]>([])

    func record(_ progress: ToolProgress) { list.withLock { $0.append(progress) } }

    var all: [ToolProgress] { list.withLock { $0 } }
}

/// Real servers no one here wrote the protocol of, from PyPI, in both eras: a server written with
/// the `mcp` SDK 2.3.0 (`sdk_features.py`) and one with `fastmcp` 4.1.6 (`fastmcp_features.py`),
/// each found modern by the probe and spoken to in the initialize era when pinned there, and
/// `mcp-server-time`. Images arrive as images, links as links, audio named, structured results
/// checked, progress heard, questions answered, a list change honoured at the next listing.
@Suite("MCP's features against the SDKs' servers", .serialized, .timeLimit(.minutes(5)))
struct MCPFeatureServerTests {
    /// The protocol version a test pins, or nil: probed (these servers are then found modern).
    static let eras: [String?] = [nil, "2025-11-25"]

    private func source(
        _ script: String, pin: String?, answerer: (any ServerQuestionAnswerer)? = nil,
        problems: ReportedProblems = ReportedProblems()
    ) throws -> MCPToolSource {
        let entry = MCPServerEntry(
            name: "f", command: try MCPTestServers.python.get(), arguments: [MCPTestServers.script(script)],
            startTimeout: 60, protocolVersion: pin)
        return MCPToolSource(
            [entry], clientVersion: "9.9", logPath: { _ in nil }, report: problems.report, answerer: answerer)
    }

    private func call(
        _ source: MCPToolSource, _ tool: String, _ arguments: [String: JSONValue] = [:],
        progress: RecordedProgress? = nil
    ) async throws -> ToolResult {
        let definition = try #require(await source.tools().first { $0.origin?.tool == tool }, "no tool \(tool)")
        let call = ToolCall(id: "c-\(tool)", name: definition.name, arguments: .object(arguments))
        guard let progress else { return await source.call(call, tool: definition) }
        return await source.call(call, tool: definition) { progress.record($0) }
    }

    private static let redPixel = Data(
        base64Encoded:
            "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")!

    @Test(
        "the mcp SDK's server: results as it meant them, progress, questions, prompts, resources",
        arguments: eras, ["stdio", "http"])
    func sdkServer(pin: String?, transport: String) async throws {
        let answerer = RecordingAnswerer([.accept(["copies": .number(2)]), .accept([:])])
        let problems = ReportedProblems()
        // Over HTTP, its Streamable HTTP app on 127.0.0.1 (progress on the answer's event stream).
        let server = transport == "http" ? try await ScriptMCPServer.start("sdk_features.py", arguments: ["http"]) : nil
        defer { server?.stop() }
        let source =
            try server.map { server in
                var entry = MCPServerEntry(name: "f", url: server.url)
                entry.protocolVersion = pin
                return MCPToolSource(
                    [entry], clientVersion: "9.9", logPath: { _ in nil }, report: problems.report, answerer: answerer)
            } ?? source("sdk_features.py", pin: pin, answerer: answerer, problems: problems)
        let status = await source.statuses().first
        #expect(status?.protocolVersion == (pin ?? "2026-07-28"))
        #expect(status?.offersPrompts == true && status?.offersResources == true)

        // An image as an image, with its bytes.
        let pixel = try await call(source, "red_pixel")
        guard case .image(let image) = pixel.content.first else {
            Issue.record("not an image: \(pixel.content)")
            return
        }
        #expect(image.mimeType == "image/png" && image.data == Array(Self.redPixel))
        // A link as its address and description, not fetched; an embedded text resource as text.
        let links = try await call(source, "find_main")
        #expect(
            links.content == [
                .text(
                    "[a link to a resource, not fetched: file:///project/src/main.rs (main.rs, text/x-rust): "
                        + "Primary application entry point]"),
                .text("Read me first."),
            ])
        // Audio named by type and size.
        #expect(try await call(source, "beep").text == "a beep\n[audio/wav, 44 bytes: not sent to the model]")
        // Structured output that matches its schema: kept, with its text.
        let weather = try await call(source, "weather", ["city": .string("Paris")])
        #expect(!weather.isError && weather.text.contains("sunny"))
        // An error result (the SDK keeps the exception's words to itself).
        let fail = try await call(source, "fail")
        #expect(fail.isError && fail.text == "Error executing tool fail", "\(fail.text)")
        // Progress, in order.
        let progress = RecordedProgress()
        let counted = try await call(source, "slow_count", ["n": .number(3)], progress: progress)
        #expect(counted.text.contains("counted to 3"))
        #expect(progress.all.map(\.progress) == [1, 2, 3])
        #expect(progress.all.map(\.total) == [3, 3, 3])
        #expect(progress.all.map(\.message) == ["step 1", "step 2", "step 3"])
        // A form question (elicitation/create in the initialize era, input_required in 2026-07-28).
        #expect(try await call(source, "reserve", ["title": .string("Dune")]).text == "Reserved 2 of 'Dune'.")
        // A page to open.
        #expect(try await call(source, "connect").text == "connect: accept")
        #expect(answerer.asked.map(\.message) == ["How many copies?", "Connect your example.com account."])
        #expect(answerer.asked.last?.kind == .url("https://accounts.example.com/connect?session=42"))

        // Prompts and resources.
        let prompts = await source.prompts()
        #expect(prompts.map(\.name) == ["review_code"])
        #expect(prompts.first?.arguments.map(\.name) == ["code"])
        let review = try await source.prompt(server: "f", name: "review_code", arguments: ["code": "x = 1"]).get()
        #expect(review.messages.map(\.content) == ["Please review this code:\n\nx = 1"])
        let resources = try await source.resources(server: "f").get()
        #expect(Set(resources.map(\.uri)) == ["config://app", "image://pixel"])
        #expect(
            try await source.readResource(server: "f", uri: "config://app").get().map(\.body) == [.text("theme=dark")])
        let read = try await source.readResource(server: "f", uri: "image://pixel").get()
        guard case .image(let attachment) = read.first?.body else {
            Issue.record("not an image: \(read)")
            return
        }
        #expect(attachment.data == Array(Self.redPixel))
        #expect(try await source.resourceTemplates(server: "f").get().map(\.uriTemplate) == ["notes://{name}"])
        await source.close()
        #expect(problems.all.isEmpty, "\(problems.lines)")
    }

    @Test(
        "a list change said during a call is honoured at the next listing: the new tool offered and callable",
        arguments: eras)
    func listChanged(pin: String?) async throws {
        let source = try source("sdk_features.py", pin: pin)
        #expect(await !source.tools().contains { $0.origin?.tool == "added" })
        #expect(try await call(source, "grow").text == "grown")
        // The change may be heard on a stream of its own (2026-07-28's subscriptions/listen): the
        // next listing is waited for, up to 10 s, with no assumption about timing beyond that.
        var offered = false
        for _ in 0..<100 where !offered {
            offered = await source.tools().contains { $0.origin?.tool == "added" }
            if !offered { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(offered)
        #expect(try await call(source, "added").text == "the added tool ran")
        await source.close()
    }

    @Test(
        "fastmcp's server: an image, structured output, progress, a question, a prompt and a resource", arguments: eras)
    func fastmcpServer(pin: String?) async throws {
        let answerer = RecordingAnswerer([.accept(["name": .string("Ada"), "value": .string("Ada")])])
        let problems = ReportedProblems()
        let source = try source("fastmcp_features.py", pin: pin, answerer: answerer, problems: problems)
        #expect(await source.statuses().first?.protocolVersion == (pin ?? "2026-07-28"))
        let pixel = try await call(source, "red_pixel")
        guard case .image(let image) = pixel.content.first else {
            Issue.record("not an image: \(pixel.content)")
            return
        }
        #expect(image.data == Array(Self.redPixel))
        let weather = try await call(source, "weather", ["city": .string("Oslo")])
        #expect(!weather.isError && weather.text.contains("Oslo") && weather.text.contains("21.5"))
        let progress = RecordedProgress()
        #expect(try await call(source, "slow_count", ["n": .number(2)], progress: progress).text == "counted to 2")
        #expect(progress.all.map(\.progress) == [1, 2])
        #expect(try await call(source, "ask_name").text == "Hello Ada")
        #expect(answerer.asked.map(\.message) == ["Your name?"])
        #expect(await source.prompts().map(\.name) == ["review_code"])
        #expect(
            try await source.readResource(server: "f", uri: "config://app").get().map(\.body) == [.text("theme=dark")])
        await source.close()
        #expect(problems.all.isEmpty, "\(problems.lines)")
    }

    @Test(
        "mcp-server-time: found by the probe and called in its era; pinned to 2025-11-25 by initialize", arguments: eras
    )
    func timeServer(pin: String?) async throws {
        let venv = try MCPTestVenv.directory.get()
        let problems = ReportedProblems()
        let entry = MCPServerEntry(
            name: "time", command: venv + "/bin/mcp-server-time", arguments: ["--local-timezone", "UTC"],
            startTimeout: 60, protocolVersion: pin)
        let source = MCPToolSource([entry], clientVersion: "9.9", logPath: { _ in nil }, report: problems.report)
        let status = await source.statuses().first
        #expect(status?.protocolVersion == (pin ?? "2026-07-28"))
        let result = try await call(
            source, "convert_time",
            [
                "source_timezone": .string("UTC"), "time": .string("12:00"), "target_timezone": .string("Asia/Tokyo"),
            ])
        await source.close()
        #expect(problems.all.isEmpty, "\(problems.lines)")
        #expect(!result.isError && result.text.contains("21:00"), "\(result.text)")
    }

    @Test(
        "mcp-server-git: its tools on a repository the test makes, in the era the probe finds and pinned to 2025-11-25",
        arguments: eras)
    func gitServer(pin: String?) async throws {
        let venv = try MCPTestVenv.directory.get()
        let repository = NSTemporaryDirectory() + "chat-git-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: repository) }
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: true)
        for arguments in [
            ["init", "-q", "-b", "trunk"], ["config", "user.email", "t@example.com"], ["config", "user.name", "T"],
        ] {
            let git = Process()
            git.executableURL = URL(fileURLWithPath: "/usr/bin/git")
            git.arguments = ["-C", repository] + arguments
            try git.run()
            git.waitUntilExit()
            #expect(git.terminationStatus == 0)
        }
        try "hello\n".write(toFile: repository + "/notes.txt", atomically: true, encoding: .utf8)
        let problems = ReportedProblems()
        let entry = MCPServerEntry(
            name: "git", command: venv + "/bin/mcp-server-git", arguments: ["--repository", repository],
            startTimeout: 60, protocolVersion: pin)
        let source = MCPToolSource([entry], clientVersion: "9.9", logPath: { _ in nil }, report: problems.report)
        let status = await source.statuses().first
        if let pin { #expect(status?.protocolVersion == pin) }
        #expect(status?.protocolVersion != nil)
        let names = await source.tools().compactMap { $0.origin?.tool }
        #expect(names.contains("git_status") && names.contains("git_add"), "\(names)")
        let before = try await call(source, "git_status", ["repo_path": .string(repository)])
        #expect(!before.isError && before.text.contains("notes.txt"), "\(before.text)")
        let added = try await call(
            source, "git_add", ["repo_path": .string(repository), "files": .array([.string("notes.txt")])])
        #expect(!added.isError, "\(added.text)")
        let after = try await call(source, "git_status", ["repo_path": .string(repository)])
        #expect(after.text.contains("new file") && after.text.contains("notes.txt"), "\(after.text)")
        // A failed call is an error result, as the server meant it.
        let wrong = try await call(
            source, "git_add", ["repo_path": .string(repository + "/nowhere"), "files": .array([])])
        #expect(wrong.isError, "\(wrong.text)")
        await source.close()
        #expect(problems.all.isEmpty, "\(problems.lines)")
    }
}
