import ChatDomain
import ChatTestSupport
import Testing

@Suite struct AttachmentsTests {
    @Test func aTextFileIsAFencedBlockHeadedByItsPathThatItsOwnBackticksCannotClose() {
        #expect(TextAttachment(path: "a.txt", text: "hello\n").fencedBlock == "a.txt\n```\nhello\n```")
        #expect(TextAttachment(path: "b.md", text: "x ``` y").fencedBlock == "b.md\n````\nx ``` y\n````")
    }

    @Test func theMessageIsTheTextThenTheFilesWithTheImagesBeside() {
        let image = ImageAttachment(path: "/i.png", mimeType: "image/png", byteCount: 3, sha256: "ab", data: [1, 2, 3])
        let attached = Attachments(
            texts: [TextAttachment(path: "a.txt", text: "A"), TextAttachment(path: "b.txt", text: "B")], images: [image]
        )
        #expect(attached.count == 3)
        #expect(attached.textByteCount == 2)
        let message = attached.message(with: "compare these")
        #expect(message.role == .user)
        #expect(message.content == "compare these\n\na.txt\n```\nA\n```\n\nb.txt\n```\nB\n```")
        #expect(message.images == [image])
        // No text: the files alone.
        #expect(
            Attachments(texts: [TextAttachment(path: "a", text: "A")]).message(with: "").content == "a\n```\nA\n```")
        #expect(Attachments().message(with: "plain").content == "plain")
    }

    @Test func aSentMessageKeepsItsImagesInTheConversationAndTheRequest() async {
        let stub = StubGPTRepository(answering: "a cat")
        let useCase = GPTChatUseCase(repository: stub)
        let image = ImageAttachment(path: "/c.png", mimeType: "image/png", byteCount: 1, sha256: "00", data: [7])
        var conversation = Conversation(settings: ChatSettings(model: "m"))
        _ = await useCase.send(ChatMessage(role: .user, content: "what?", images: [image]), in: &conversation) { _ in }
        _ = await useCase.send("and now?", in: &conversation) { _ in }
        #expect(conversation.messages.first?.images == [image])
        // A later turn of the same run sends the image again, from memory.
        #expect(stub.requests.last?.messages.first?.images.first?.data == [7])
        #expect(conversation.unavailableImages.isEmpty)
        var gone = image
        gone.data = nil
        let later = Conversation(
            settings: ChatSettings(model: "m"), messages: [ChatMessage(role: .user, content: "x", images: [gone])])
        #expect(later.unavailableImages == [gone])
        #expect(gone.unavailableNote == "[image /c.png is no longer available]")
    }
}
