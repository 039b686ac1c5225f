import ChatTestSupport
import Foundation
import Testing

/// The smallest files of each image kind: their first bytes are what counts.
private let images: [(name: String, mime: String, bytes: [UInt8])] = [
    ("a.png", "image/png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]),
    ("b.jpg", "image/jpeg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 16]),
    ("c.gif", "image/gif", Array("GIF89a".utf8) + [1, 0, 1, 0]),
    ("d.webp", "image/webp", Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WEBPVP8 ".utf8)),
]

/// Files and images end to end: what the request carries, what is refused before anything is
/// sent, and what the history keeps of an image.
@Suite(.timeLimit(.minutes(1)))
struct FilesCommandTests {
    private func answering() throws -> LoopbackServer {
        try LoopbackServer { _, _ in ServerStep.sse([ServerStep.chatChunk("seen"), ServerStep.finishChunk()]) }
    }

    /// The content of the last message of request `index`: a string, or the parts.
    private func lastContent(_ server: LoopbackServer, _ index: Int) throws -> Any? {
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data(try server.request(index).body)) as? [String: Any])
        return (body["messages"] as? [[String: Any]])?.last?["content"]
    }

    @Test func textFilesGoAsFencedBlocksAndImagesAsImageURLPartsOfTheirType() async throws {
        let server = try answering()
        defer { server.stop() }
        let chat = ChatBinary()
        let notes = try chat.writeFile("notes.txt", Array("fix the ```build```\n".utf8))
        let text = try await chat.run(["--base-url", server.baseURL, "-f", notes, "what", "next?"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(try lastContent(server, 0) as? String == "what next?\n\n\(notes)\n````\nfix the ```build```\n````")

        var arguments = ["--base-url", server.baseURL]
        for image in images { arguments += ["-f", try chat.writeFile(image.name, image.bytes)] }
        let seen = try await chat.run(arguments + ["compare"])
        #expect(seen.status == 0, "\(seen.stderr)")
        let parts = try #require(try lastContent(server, 1) as? [[String: Any]])
        #expect(parts.first?["type"] as? String == "text")
        #expect(parts.first?["text"] as? String == "compare")
        let urls = parts.dropFirst().compactMap { ($0["image_url"] as? [String: Any])?["url"] as? String }
        #expect(
            urls == images.map { "data:\($0.mime);base64," + Data($0.bytes).base64EncodedString() })
        #expect(parts.dropFirst().allSatisfy { $0["type"] as? String == "image_url" })
        // Nothing else is added to the request: no top_p, no temperature.
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data(try server.request(1).body)) as? [String: Any])
        #expect(Set(body.keys) == ["model", "messages", "stream", "stream_options"])
    }

    @Test func aGlobAndStandardInputAttachSeveralFiles() async throws {
        let server = try answering()
        defer { server.stop() }
        let chat = ChatBinary()
        let a = try chat.writeFile("src/a.swift", Array("let a = 1".utf8))
        let b = try chat.writeFile("src/b.swift", Array("let b = 2".utf8))
        let result = try await chat.run(
            ["--base-url", server.baseURL, "-f", chat.home + "/src/*.swift", "-f", "-", "review"], input: "piped\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            try lastContent(server, 0) as? String
                == "review\n\n\(a)\n```\nlet a = 1\n```\n\n\(b)\n```\nlet b = 2\n```\n\n(stdin)\n```\npiped\n```")
    }

    @Test func whatCannotBeAttachedStopsTheRunBeforeAnythingIsSent() async throws {
        let server = try answering()
        defer { server.stop() }
        let chat = ChatBinary()
        let directory = chat.home + "/src"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let binary = try chat.writeFile("a.out", [0x7F, 0x45, 0x4C, 0x46, 0, 2, 1])
        let big = try chat.writeFile("big.txt", Array(repeating: 0x61, count: 3000))
        let config = try chat.writeConfig(#"{"max_file_bytes": 2048}"#)
        for (arguments, message) in [
            (
                ["-f", directory],
                "\(directory) is a directory: attach its files with a glob, e.g. -f '\(directory)/*' (quoted, chat expands it)"
            ),
            (
                ["-f", binary],
                "\(binary) is a binary file: only text files, PDFs and PNG, JPEG, GIF or WebP images can be attached"
            ),
            (["-f", chat.home + "/none.txt"], "\(chat.home)/none.txt: no such file"),
            (["-f", chat.home + "/*.zz"], "no file matches \(chat.home)/*.zz"),
            (
                ["--config", config, "-f", big],
                "the attached files hold 2.9 KiB of text, over the 2 KiB a message may carry (max_file_bytes in the config)"
            ),
        ] {
            let result = try await chat.run(["--base-url", server.baseURL] + arguments + ["hi"])
            #expect(result.status == 2)
            #expect(result.stderr == "chat: error: \(message)\n")
            #expect(result.stdout == "")
        }
        #expect(server.requests.isEmpty)
        // Nothing was stored either: nothing was sent.
        #expect(try await chat.run(["--list", "--all"]).stdout == "")
        // The default limit is 1 MiB.
        let large = try chat.writeFile("large.txt", Array(repeating: 0x61, count: 1_048_577))
        let over = try await chat.run(["--base-url", server.baseURL, "-f", large, "hi"])
        #expect(over.stderr.contains("over the 1 MiB a message may carry"))
    }

    @Test func theHistoryKeepsWhatIdentifiesAnImageAndAContinuedConversationRereadsIt() async throws {
        let server = try answering()
        defer { server.stop() }
        let chat = ChatBinary()
        let png = images[0]
        let path = try chat.writeFile("cat.png", png.bytes)
        _ = try await chat.run(["--base-url", server.baseURL, "-f", path, "what is this?"])
        let id = String(try await chat.run(["--list"]).stdout.prefix(8))

        let show = try await chat.run(["--show", id])
        #expect(show.stdout.contains("what is this?\n[image \(path), 12 bytes image/png, sha256 "))
        #expect(show.stdout.contains("; the history keeps this, not the image]"))
        let database = try String(contentsOfFile: chat.home + "/data/chat/history.sqlite", encoding: .isoLatin1)
        #expect(!database.contains(Data(png.bytes).base64EncodedString()))

        // Still there: sent again with the next turn.
        _ = try await chat.run(["--base-url", server.baseURL, "-c", "and now?"])
        let resent = try #require(
            try JSONSerialization.jsonObject(with: Data(try server.request(1).body)) as? [String: Any])
        let first = (resent["messages"] as? [[String: Any]])?.first?["content"] as? [[String: Any]]
        #expect(
            (first?.last?["image_url"] as? [String: Any])?["url"] as? String == "data:image/png;base64,iVBORw0KGgoAAAAN"
        )

        // Changed: a note in its place, said once.
        try Data(png.bytes + [0]).write(to: URL(fileURLWithPath: path))
        let changed = try await chat.run(["--base-url", server.baseURL, "-c", "and later?"])
        #expect(changed.status == 0)
        #expect(
            changed.stderr
                == "chat: (\(path) is no longer available as attached; the requests carry a note in its place)\n")
        let noted = try #require(
            try JSONSerialization.jsonObject(with: Data(try server.request(2).body)) as? [String: Any])
        let parts = (noted["messages"] as? [[String: Any]])?.first?["content"] as? [[String: Any]]
        #expect(parts?.map { $0["type"] as? String } == ["text", "text"])
        #expect(parts?.last?["text"] as? String == "[image \(path) is no longer available]")
        #expect(try await chat.run(["--show", id]).stdout.contains("; the file is no longer there as it was]"))
    }

    @Test func laterTurnsOfTheRunResendTheImageFromMemoryAndAResumedOneSaysOnceItIsGone() async throws {
        let chat = ChatBinary()
        let png = images[0]
        let path = try chat.writeFile("cat.png", png.bytes)
        // The file goes away as soon as the first request has carried it.
        let server = try LoopbackServer { _, index in
            if index == 0 { try? FileManager.default.removeItem(atPath: path) }
            return ServerStep.sse([ServerStep.chatChunk("seen"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let url = "data:image/png;base64," + Data(png.bytes).base64EncodedString()
        let firstRun = try await chat.run(
            ["--base-url", server.baseURL, "-f", path, "-i"], input: "what is this?\nand its colour?\n")
        #expect(firstRun.status == 0, "\(firstRun.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path))
        // The same run: the second request still carries the bytes, from memory.
        let second = try firstMessageParts(server, 1)
        #expect((second.last?["image_url"] as? [String: Any])?["url"] as? String == url)
        #expect(firstRun.stderr == "")

        // Resumed in a later run with the file gone: a note in its place in every request, said once.
        let resumed = try await chat.run(["--base-url", server.baseURL, "-c", "-i"], input: "one\ntwo\n")
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(
            resumed.stderr.hasPrefix(
                "chat: (\(path) is no longer available as attached; the requests carry a note in its place)\n"))
        #expect(resumed.stderr.components(separatedBy: "no longer available").count == 2)
        for index in [2, 3] {
            let parts = try firstMessageParts(server, index)
            #expect(parts.map { $0["type"] as? String } == ["text", "text"])
            #expect(parts.last?["text"] as? String == "[image \(path) is no longer available]")
        }
        #expect(server.requests.count == 4)
    }

    /// The parts of the first user message of request `index`.
    private func firstMessageParts(_ server: LoopbackServer, _ index: Int) throws -> [[String: Any]] {
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data(try server.request(index).body)) as? [String: Any])
        let messages = try #require(body["messages"] as? [[String: Any]])
        return try #require(messages.first { $0["role"] as? String == "user" }?["content"] as? [[String: Any]])
    }
}

/// `/file` and `/files` in the REPL on a terminal: Tab completes the path, the prompt counts the
/// files, the next message carries them.
@Suite(.enabled(if: TmuxSession.isAvailable, "needs tmux (apt-get install tmux)"), .timeLimit(.minutes(1)))
struct FilesTerminalTests {
    @Test func fileWithTabThenFilesThenTheMessageCarriesIt() async throws {
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("read it"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        let chat = ChatBinary()
        try FileManager.default.createDirectory(atPath: chat.home + "/docs", withIntermediateDirectories: true)
        try "the plan".write(toFile: chat.home + "/docs/plan-2026.txt", atomically: true, encoding: .utf8)
        let session = try TmuxSession(
            program: ChatBinary.path, arguments: ["--base-url", server.baseURL],
            environment: chat.environment.merging(["TERM": "xterm"]) { $1 })
        defer { session.kill() }
        #expect(await session.waitForScreen { $0.contains("0 turns") })
        try session.type("/file \(chat.home)/do")
        try session.send("Tab")
        #expect(await session.waitForScreen { $0.contains("/file \(chat.home)/docs/") })
        try session.type("pl")
        try session.send("Tab")
        #expect(await session.waitForScreen { $0.contains("/file \(chat.home)/docs/plan-2026.txt") })
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("0 turns · +1 file ›") })
        try session.type("/files")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("plan-2026.txt  8 bytes of text") })
        try session.type("summarise")
        try session.send("Enter")
        #expect(await session.waitForScreen { $0.contains("1 turn ·") && $0.contains("read it") })
        let body = try #require(
            try JSONSerialization.jsonObject(with: Data(try server.request(0).body)) as? [String: Any])
        let content = (body["messages"] as? [[String: Any]])?.last?["content"] as? String
        #expect(content == "summarise\n\n\(chat.home)/docs/plan-2026.txt\n```\nthe plan\n```")
        try session.send("C-d")
        #expect(await session.exitStatus() == 0)
    }
}
