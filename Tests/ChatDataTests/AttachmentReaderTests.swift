import ChatDomain
import ChatTestSupport
import Foundation
import Testing

@testable import ChatAttachments
@testable import ChatHistory
@testable import ChatSystem

/// The smallest files of each image kind: their first bytes are what counts.
private let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
private let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16]
private let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0]
private let webp: [UInt8] = Array("RIFF".utf8) + [4, 0, 0, 0] + Array("WEBPVP8 ".utf8)

@Suite struct AttachmentReaderTests {
    private let root = NSTemporaryDirectory() + "chat-attach-\(UUID().uuidString)"

    private func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let path = root + "/" + name
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func reader(limit: Int = 1_048_576, stdin: [UInt8]? = nil) -> FileAttachmentReader {
        guard let stdin else { return FileAttachmentReader(limit: limit, home: root) }
        return FileAttachmentReader(limit: limit, home: root, standardInput: { @Sendable () -> [UInt8]? in stdin })
    }

    @Test func textFilesAndImagesOfEachKind() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let text = try write("notes.txt", Array("héllo\n".utf8))
        let paths = try [("p.png", png), ("j.jpg", jpeg), ("g.gif", gif), ("w.webp", webp)].map {
            try write($0.0, $0.1)
        }
        let read = try reader().read([text] + paths, adding: Attachments()).get()
        #expect(read.texts == [TextAttachment(path: text, text: "héllo\n")])
        #expect(read.images.map(\.mimeType) == ["image/png", "image/jpeg", "image/gif", "image/webp"])
        #expect(read.images.map(\.path) == paths)
        #expect(read.images[0].byteCount == png.count)
        #expect(read.images[0].data == png)
        #expect(read.images[0].sha256 == SHA256.hex(png))
        // The kind comes from the bytes, not the name.
        let disguised = try write("photo.txt", png)
        #expect(try reader().read([disguised], adding: Attachments()).get().images.count == 1)
    }

    @Test func whatCannotBeAttachedIsRefusedWithNothingAdded() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try write("dir/inside.txt", Array("x".utf8))
        let binary = try write("a.out", [0x7F, 0x45, 0x4C, 0x46, 0, 1])
        let latin1 = try write("latin1.txt", [0x63, 0x61, 0x66, 0xE9])
        let big = try write("big.txt", Array(repeating: 0x61, count: 2000))
        let small = try write("small.txt", Array("x".utf8))
        let existing = Attachments(texts: [TextAttachment(path: "kept", text: "kept")])

        #expect(reader().read([root + "/dir"], adding: existing) == .failure(.directory(path: root + "/dir")))
        #expect(reader().read([binary], adding: existing) == .failure(.binary(path: binary)))
        #expect(reader().read([latin1], adding: existing) == .failure(.binary(path: latin1)))
        #expect(reader().read([root + "/none"], adding: existing) == .failure(.notFound(path: root + "/none")))
        #expect(reader().read([root + "/*.zz"], adding: existing) == .failure(.noMatch(pattern: root + "/*.zz")))
        // The limit counts the text of the whole message, what was attached already included.
        #expect(reader(limit: 1000).read([big], adding: existing) == .failure(.tooMuchText(bytes: 2004, limit: 1000)))
        #expect(
            reader(limit: 5).read([small], adding: existing)
                == .success(
                    existing.adding(
                        Attachments(texts: [TextAttachment(path: small, text: "x")]))))
        #expect(reader(limit: 4).read([small], adding: existing) == .failure(.tooMuchText(bytes: 5, limit: 4)))
        #expect(reader().read(["-"], adding: existing) == .failure(.standardInputUnavailable))
    }

    @Test func forAModelThatTakesNoImagesAnImageIsRefusedAndTextStillAttaches() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let text = try write("notes.txt", Array("x".utf8))
        let picture = try write("picture.png", png)
        let reader = FileAttachmentReader(
            limit: 1_048_576, home: root, standardInput: { @Sendable () -> [UInt8]? in gif }, takesImages: false)
        let existing = Attachments(texts: [TextAttachment(path: "kept", text: "kept")])
        #expect(reader.read([text, picture], adding: existing) == .failure(.imageNotTaken(path: picture)))
        #expect(reader.read(["-"], adding: existing) == .failure(.imageNotTaken(path: "(stdin)")))
        #expect(reader.read([root + "/*.png"], adding: existing) == .failure(.imageNotTaken(path: picture)))
        #expect(try reader.read([text], adding: existing).get().texts.map(\.path) == ["kept", text])
    }

    @Test func aPDFIsKnownByItsFirstBytesAndHeldTo32MiBWhateverTheTextLimitAndImagesSay() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let pdf = minimalPDF(pages: ["Hello"])
        let limit = 32 * 1_048_576
        let most = try SparseFile.write(root + "/most.dat", header: pdf, size: limit)
        let over = try SparseFile.write(root + "/over.pdf", header: pdf, size: limit + 1)
        let reader = FileAttachmentReader(limit: 10, home: root, takesImages: false)
        let read = try reader.read([most], adding: Attachments()).get()
        #expect(read.texts.isEmpty)
        #expect(read.images.map(\.mimeType) == ["application/pdf"])
        #expect(read.images.first?.byteCount == limit)
        #expect(read.images.first?.fileName == "most.dat")
        #expect(
            reader.read([over], adding: Attachments())
                == .failure(.pdfTooLarge(path: over, bytes: limit + 1, limit: limit)))
        // Read whole first (standard input): the same limit.
        let piped = FileAttachmentReader(
            limit: 10, home: root,
            standardInput: { @Sendable () -> [UInt8]? in pdf + Array(repeating: 0x20, count: limit) })
        #expect(
            piped.read(["-"], adding: Attachments())
                == .failure(.pdfTooLarge(path: "(stdin)", bytes: pdf.count + limit, limit: limit)))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/pdftotext"), "needs pdftotext"))
    func withPDFTextAPipedPDFGoesAsItsText() throws {
        let pdf = minimalPDF(pages: ["One", "Two", "Three"])
        let reader = FileAttachmentReader(
            limit: 1000, home: root, standardInput: { @Sendable () -> [UInt8]? in pdf }, pdf: .text)
        let read = try reader.read(["-"], adding: Attachments()).get()
        #expect(read.images.isEmpty)
        #expect(read.texts == [TextAttachment(path: "(stdin) (PDF, 3 pages, its text)", text: "One\n\nTwo\n\nThree\n")])
    }

    @Test func aGlobAttachesTheFilesItMatchesAndDashIsStandardInput() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let a = try write("src/a.swift", Array("let a = 1".utf8))
        let b = try write("src/b.swift", Array("let b = 2".utf8))
        _ = try write("src/c.md", Array("no".utf8))
        _ = try write("src/sub.swift/x", Array("a directory that matches".utf8))
        let read = try reader(stdin: Array("piped".utf8)).read([root + "/src/*.swift", "-"], adding: Attachments())
            .get()
        #expect(read.texts.map(\.path) == [a, b, "(stdin)"])
        #expect(read.texts.last?.text == "piped")
        // `~/` is the home directory.
        #expect(try reader().read(["~/src/c.md"], adding: Attachments()).get().texts.first?.text == "no")
    }

    @Test func aStoredImageIsReadAgainOnlyWhenItIsUnchanged() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = try write("cat.png", png)
        let image = try reader().read([path], adding: Attachments()).get().images[0]
        var stored = image
        stored.data = nil
        #expect(ImageFile.reread(stored, home: nil).data == png)
        _ = try write("cat.png", png + [0])
        #expect(ImageFile.reread(stored, home: nil).data == nil)
        try FileManager.default.removeItem(atPath: path)
        #expect(ImageFile.reread(stored, home: nil).data == nil)
    }

    @Test func sha256AndBase64KnownAnswers() {
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        #expect(SHA256.hex(long) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(Array(repeating: 0x61, count: 1_000)) == sha256OfThousandAs)
        for text in ["", "f", "fo", "foo", "foob", "fooba", "foobar"] {
            #expect(Base64.encode(Array(text.utf8)) == Data(text.utf8).base64EncodedString())
        }
        #expect(Base64.encode([0xFF, 0xFE, 0xFD, 0x00]) == "//79AA==")
    }
}

/// SHA-256 of 1,000 "a"s (from `printf 'a%.0s' {1..1000} | sha256sum`).
private let sha256OfThousandAs = "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"

/// Images in the history and in `/save` files: what identifies them is stored, never the bytes,
/// and the bytes are read again when the file is still there unchanged.
@Suite struct StoredImageTests {
    private let root = NSTemporaryDirectory() + "chat-stored-images-\(UUID().uuidString)"

    @Test func theHistoryKeepsPathSizeAndSHA256AndRereadsTheFile() async throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let path = root + "/cat.png"
        try Data(png).write(to: URL(fileURLWithPath: path))
        let image = try FileAttachmentReader(limit: 100, home: nil).read([path], adding: Attachments()).get().images[0]

        let directory = try #require(DataDirectory(environment: ["XDG_DATA_HOME": root + "/data"]))
        let store = try await SQLiteConversationStore.open(in: directory, report: { _ in }).get()
        let settings = ChatSettings(model: "m")
        let id = try #require(await store.begin(Conversation(settings: settings)))
        _ = await store.append(
            ChatMessage(role: .user, content: "a cat?", images: [image]), settings: settings, systemPrompt: nil, to: id)

        // The row holds no bytes.
        let db = try SQLiteConnection(path: directory.file("history.sqlite"))
        let column = try db.firstRow("SELECT images FROM message") { row throws(StorageError) in
            try row.column(0, as: String.self)
        }
        let stored = try #require(column)
        #expect(stored.contains("\"sha256\":\"\(SHA256.hex(png))\""))
        #expect(stored.contains("\"size\":\(png.count)"))
        #expect(stored.contains("\"mime_type\":\"image/png\""))
        #expect(!stored.contains(Base64.encode(png)))

        #expect(try await store.load(id).get().messages[0].images == [image])
        try Data(png + [1]).write(to: URL(fileURLWithPath: path))
        let changed = try await store.load(id).get().messages[0].images[0]
        #expect(changed.data == nil)
        #expect(changed.sha256 == image.sha256)

        // A /save file likewise.
        let archive = JSONConversationArchive(home: nil)
        try Data(png).write(to: URL(fileURLWithPath: path))
        let conversation = try await store.load(id).get()
        let bytes = try archive.encode(conversation)
        #expect(!String(decoding: bytes, as: UTF8.self).contains(Base64.encode(png)))
        try archive.save(conversation, to: root + "/saved.json")
        #expect(try archive.load(from: root + "/saved.json").messages[0].images == [image])
        try FileManager.default.removeItem(atPath: path)
        #expect(try archive.load(from: root + "/saved.json").messages[0].images[0].data == nil)
    }
}
