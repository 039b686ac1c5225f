import ChatDomain
import Foundation
import Testing

@testable import ChatHistory
@testable import ChatJSON

/// `/save` files: the conversation's settings travel with it, written flat beside `model` as
/// version 1 wrote them, so version 1 files still load.
@Suite struct ConversationFileTests {
    private func withTempDir(_ body: (String) throws -> Void) throws {
        let path = NSTemporaryDirectory() + "chat-file-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    private let archive = JSONConversationArchive(home: nil)

    @Test func aSavedConversationLoadsWithItsSettings() throws {
        var conversation = Conversation(
            systemPrompt: "Be brief.",
            settings: ChatSettings(
                model: "m", sampling: [.temperature: .number(0.3), .maxTokens: .wholeNumber(99), .topP: .number(0.25)]))
        conversation.append(ChatMessage(role: .user, content: "Hi"))
        conversation.append(ChatMessage(role: .assistant, content: "Hello"))
        try withTempDir { dir in
            try archive.save(conversation, to: dir + "/c.json")
            let loaded = try archive.load(from: dir + "/c.json")
            #expect(loaded == conversation)
        }
    }

    @Test func anAnswerAFallbackGaveAndOneResumedKeepTheirMarks() throws {
        var conversation = Conversation(settings: ChatSettings(model: "m"))
        conversation.append(ChatMessage(role: .user, content: "Hi"))
        var answer = ChatMessage(role: .assistant, content: "Hello")
        answer.answeredBy = AnsweredBy(profile: "claude", model: "claude-haiku-4-5")
        answer.resumed = true
        conversation.append(answer)
        try withTempDir { dir in
            try archive.save(conversation, to: dir + "/c.json")
            let text = try String(contentsOfFile: dir + "/c.json", encoding: .utf8)
            #expect(
                text.contains(#""answered_by" : "claude""#) || text.contains(#""answered_by": "claude""#), "\(text)")
            let loaded = try archive.load(from: dir + "/c.json")
            #expect(loaded == conversation)
            #expect(loaded.messages.last?.answeredBy?.model == "claude-haiku-4-5")
            #expect(loaded.messages.last?.resumed == true)
        }
    }

    @Test func settingsAreWrittenFlatBesideTheModelAndUnsetOnesLeftOut() throws {
        let set = Conversation(
            settings: ChatSettings(
                model: "m", sampling: [.temperature: .number(0), .maxTokens: .wholeNumber(5), .topP: .number(0.5)]))
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(archive.encode(set))) as? [String: Any])
        #expect(object["temperature"] as? Double == 0)
        #expect(object["max_tokens"] as? Int == 5)
        #expect(object["top_p"] as? Double == 0.5)
        #expect(object["version"] as? Int == 1)
        #expect(object["settings"] == nil)

        let unset =
            try JSONSerialization.jsonObject(
                with: Data(archive.encode(Conversation(settings: ChatSettings(model: "m"))))) as? [String: Any]
        #expect(Set(unset?.keys.map { $0 } ?? []) == ["format", "version", "model", "messages"])
    }

    @Test func aVersionOneFileStillLoads() throws {
        let old = """
            {
              "format" : "chat-conversation",
              "max_tokens" : 64,
              "messages" : [
                {"content" : "Hi", "role" : "user"},
                {"content" : "Hel", "role" : "assistant", "state" : "interrupted",
                 "usage" : {"completion_tokens" : 1, "prompt_tokens" : 2, "total_tokens" : 3}}
              ],
              "model" : "old-model",
              "system_prompt" : "Be kind.",
              "temperature" : 1.5,
              "version" : 1
            }
            """
        let bare = #"{"format": "chat-conversation", "version": 1, "model": "m", "messages": []}"#
        try withTempDir { dir in
            try old.write(toFile: dir + "/old.json", atomically: true, encoding: .utf8)
            let loaded = try archive.load(from: dir + "/old.json")
            #expect(
                loaded.settings
                    == ChatSettings(
                        model: "old-model", sampling: [.temperature: .number(1.5), .maxTokens: .wholeNumber(64)]))
            #expect(loaded.systemPrompt == "Be kind.")
            #expect(loaded.messages.map(\.content) == ["Hi", "Hel"])
            #expect(loaded.messages.last?.state == .interrupted)
            #expect(loaded.messages.last?.usage == TokenUsage(promptTokens: 2, completionTokens: 1, totalTokens: 3))

            try bare.write(toFile: dir + "/bare.json", atomically: true, encoding: .utf8)
            #expect(try archive.load(from: dir + "/bare.json").settings == ChatSettings(model: "m"))
        }
    }

    /// What a file must hold, as `JSONDecoder` read it when the DTO was `Decodable` (and as
    /// earlier releases read it): a required field missing, or any field of the wrong type, refuses
    /// the whole; an optional one may be missing or null; members chat does not use are ignored.
    @Test(arguments: [
        (#"{"format":"chat-conversation","version":1,"model":"m","messages":[]}"#, true),
        (
            #"{"format":"chat-conversation","version":2,"model":"m","system_prompt":"Be brief.","temperature":0.5,"#
                + #""max_tokens":12,"top_p":1,"messages":[{"role":"user","content":"Hi \u00e9 \ud83c\udf89"},"#
                + #"{"role":"assistant","content":"Hello","state":"interrupted","reasoning":"r","#
                + #""usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3,"extra":true}}],"other":[1,{}]}"#,
            true
        ),
        (
            #"{"format":"chat-conversation","version":2,"model":"m","system_prompt":null,"temperature":null,"#
                + #""messages":[{"role":"user","content":"x","state":null,"reasoning":null,"usage":null}]}"#, true
        ),
        (#"{"format":"chat-conversation","version":1.5,"model":"m","messages":[]}"#, false),
        (#"{"format":"chat-conversation","version":"1","model":"m","messages":[]}"#, false),
        (#"{"format":"chat-conversation","version":1,"messages":[]}"#, false),
        (#"{"format":"chat-conversation","version":1,"model":"m","max_tokens":2.5,"messages":[]}"#, false),
        (#"{"format":"chat-conversation","version":1,"model":"m","temperature":"hot","messages":[]}"#, false),
        (#"{"format":"chat-conversation","version":1,"model":"m","messages":[{"role":"user"}]}"#, false),
        (#"{"format":"chat-conversation","version":1,"model":"m","messages":[{"role":"user","content":1}]}"#, false),
        (
            #"{"format":"chat-conversation","version":1,"model":"m","messages":[{"role":"user","content":"x","#
                + #""usage":{"prompt_tokens":1}}]}"#, false
        ),
        (
            #"{"format":"chat-conversation","version":3,"model":"m","messages":[{"role":"user","content":"see","#
                + #""images":[{"path":"/a.png","mime_type":"image/png","size":3,"sha256":"ab"},"#
                + #"{"path":"/b.webp","mime_type":"image/webp","size":1,"sha256":"cd","extra":1}]}]}"#, true
        ),
        (
            #"{"format":"chat-conversation","version":3,"model":"m","messages":[{"role":"user","content":"x","#
                + #""images":null}]}"#, true
        ),
        (
            #"{"format":"chat-conversation","version":3,"model":"m","messages":[{"role":"user","content":"x","#
                + #""images":[{"path":"/a.png","mime_type":"image/png","size":"3","sha256":"ab"}]}]}"#, false
        ),
        (
            #"{"format":"chat-conversation","version":3,"model":"m","messages":[{"role":"user","content":"x","#
                + #""images":{}}]}"#, false
        ),
        (#"{"format":"chat-conversation","version":1,"model":"m","messages":{}}"#, false),
        (#"[]"#, false),
        (#"{}"#, false),
    ])
    func theFileReadsAsItAlwaysRead(_ text: String, accepted: Bool) throws {
        let parsed = (try? JSONParser.parse(text)).flatMap(ConversationFileDTO.init(json:))
        #expect((parsed != nil) == accepted)
    }

    /// The bytes `/save` wrote before the DTO listed its fields itself (Foundation's encoder,
    /// pretty-printed, keys sorted): written the same today, and read back.
    @Test func aFileIsWrittenByteForByteAsEarlierReleasesWroteIt() throws {
        let full = #"""
            {
              "format" : "chat-conversation",
              "max_tokens" : 256,
              "messages" : [
                {
                  "content" : "Hi\n\té 🎉",
                  "images" : [
                    {
                      "mime_type" : "image/png",
                      "path" : "/a b.png",
                      "sha256" : "ab12",
                      "size" : 3
                    }
                  ],
                  "role" : "user"
                },
                {
                  "content" : "Hel",
                  "reasoning" : "think",
                  "role" : "assistant",
                  "state" : "interrupted",
                  "usage" : {
                    "completion_tokens" : 1,
                    "prompt_tokens" : 2,
                    "total_tokens" : 3
                  }
                },
                {
                  "content" : "",
                  "role" : "user"
                }
              ],
              "model" : "org/m",
              "system_prompt" : "Be brief / \"kind\".",
              "temperature" : 0.7,
              "top_p" : 1,
              "version" : 1
            }

            """#
        let empty = """
            {
              "format" : "chat-conversation",
              "messages" : [

              ],
              "model" : "m",
              "version" : 1
            }

            """
        var conversation = Conversation(
            systemPrompt: #"Be brief / "kind"."#,
            settings: ChatSettings(
                model: "org/m",
                sampling: [.temperature: .number(0.7), .maxTokens: .wholeNumber(256), .topP: .number(1)]))
        let image = ImageAttachment(path: "/a b.png", mimeType: "image/png", byteCount: 3, sha256: "ab12", data: nil)
        conversation.append(ChatMessage(role: .user, content: "Hi\n\té 🎉", images: [image]))
        conversation.append(
            ChatMessage(
                role: .assistant, content: "Hel", state: .interrupted, reasoning: "think",
                usage: TokenUsage(promptTokens: 2, completionTokens: 1, totalTokens: 3)))
        conversation.append(ChatMessage(role: .user, content: ""))
        #expect(String(decoding: try archive.encode(conversation), as: UTF8.self) == full)
        #expect(
            String(decoding: try archive.encode(Conversation(settings: ChatSettings(model: "m"))), as: UTF8.self)
                == empty)
        try withTempDir { dir in
            try full.write(toFile: dir + "/full.json", atomically: true, encoding: .utf8)
            let loaded = try archive.load(from: dir + "/full.json")
            #expect(loaded.settings == conversation.settings)
            #expect(loaded.systemPrompt == conversation.systemPrompt)
            #expect(loaded.messages.map(\.content) == conversation.messages.map(\.content))
            #expect(loaded.messages.map(\.state) == conversation.messages.map(\.state))
            #expect(loaded.messages.map(\.usage) == conversation.messages.map(\.usage))
            #expect(loaded.messages[0].images.map(\.path) == ["/a b.png"])
        }
    }

    @Test func aFileIsReadFieldForField() throws {
        let text =
            #"{"format":"chat-conversation","version":2,"model":"m","system_prompt":"Be brief.","temperature":0.5,"#
            + #""max_tokens":12,"top_p":1,"messages":[{"role":"user","content":"Hi"},"#
            + #"{"role":"assistant","content":"Hello","state":"interrupted","reasoning":"r","#
            + #""usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3,"extra":true},"#
            + #""images":[{"path":"/a.png","mime_type":"image/png","size":3,"sha256":"ab","extra":1}]}],"other":[1,{}]}"#
        let file = try #require(ConversationFileDTO(json: try JSONParser.parse(text)))
        #expect(
            file
                == ConversationFileDTO(
                    format: "chat-conversation", version: 2, model: "m", system_prompt: "Be brief.",
                    settings: StoredSettingsDTO(
                        sampling: [.temperature: .number(0.5), .maxTokens: .wholeNumber(12), .topP: .number(1)]),
                    messages: [
                        .init(role: "user", content: "Hi"),
                        .init(
                            role: "assistant", content: "Hello", state: "interrupted", reasoning: "r",
                            usage: .init(prompt_tokens: 1, completion_tokens: 2, total_tokens: 3),
                            images: [StoredImageDTO(path: "/a.png", mime_type: "image/png", size: 3, sha256: "ab")]),
                    ]))
    }
}
