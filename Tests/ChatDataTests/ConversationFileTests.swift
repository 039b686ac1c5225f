import ChatDomain
import Foundation
import Testing

@testable import ChatData

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
            systemPrompt: "Be brief.", settings: ChatSettings(model: "m", temperature: 0.3, maxTokens: 99, topP: 0.25))
        conversation.append(ChatMessage(role: .user, content: "Hi"))
        conversation.append(ChatMessage(role: .assistant, content: "Hello"))
        try withTempDir { dir in
            try archive.save(conversation, to: dir + "/c.json")
            let loaded = try archive.load(from: dir + "/c.json")
            #expect(loaded == conversation)
        }
    }

    @Test func settingsAreWrittenFlatBesideTheModelAndUnsetOnesLeftOut() throws {
        let set = Conversation(settings: ChatSettings(model: "m", temperature: 0, maxTokens: 5, topP: 0.5))
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
            #expect(loaded.settings == ChatSettings(model: "old-model", temperature: 1.5, maxTokens: 64))
            #expect(loaded.systemPrompt == "Be kind.")
            #expect(loaded.messages.map(\.content) == ["Hi", "Hel"])
            #expect(loaded.messages.last?.state == .interrupted)
            #expect(loaded.messages.last?.usage == TokenUsage(promptTokens: 2, completionTokens: 1, totalTokens: 3))

            try bare.write(toFile: dir + "/bare.json", atomically: true, encoding: .utf8)
            #expect(try archive.load(from: dir + "/bare.json").settings == ChatSettings(model: "m"))
        }
    }

    /// The file is read through `JSONParser`; it must read as `JSONDecoder` reads it, and refuse
    /// what that refuses.
    @Test(arguments: [
        #"{"format":"chat-conversation","version":1,"model":"m","messages":[]}"#,
        #"{"format":"chat-conversation","version":2,"model":"m","system_prompt":"Be brief.","temperature":0.5,"#
            + #""max_tokens":12,"top_p":1,"messages":[{"role":"user","content":"Hi \u00e9 \ud83c\udf89"},"#
            + #"{"role":"assistant","content":"Hello","state":"interrupted","reasoning":"r","#
            + #""usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3,"extra":true}}],"other":[1,{}]}"#,
        #"{"format":"chat-conversation","version":2,"model":"m","system_prompt":null,"temperature":null,"#
            + #""messages":[{"role":"user","content":"x","state":null,"reasoning":null,"usage":null}]}"#,
        #"{"format":"chat-conversation","version":1.5,"model":"m","messages":[]}"#,
        #"{"format":"chat-conversation","version":"1","model":"m","messages":[]}"#,
        #"{"format":"chat-conversation","version":1,"messages":[]}"#,
        #"{"format":"chat-conversation","version":1,"model":"m","max_tokens":2.5,"messages":[]}"#,
        #"{"format":"chat-conversation","version":1,"model":"m","temperature":"hot","messages":[]}"#,
        #"{"format":"chat-conversation","version":1,"model":"m","messages":[{"role":"user"}]}"#,
        #"{"format":"chat-conversation","version":1,"model":"m","messages":[{"role":"user","content":1}]}"#,
        #"{"format":"chat-conversation","version":1,"model":"m","messages":[{"role":"user","content":"x","#
            + #""usage":{"prompt_tokens":1}}]}"#,
        #"{"format":"chat-conversation","version":3,"model":"m","messages":[{"role":"user","content":"see","#
            + #""images":[{"path":"/a.png","mime_type":"image/png","size":3,"sha256":"ab"},"#
            + #"{"path":"/b.webp","mime_type":"image/webp","size":1,"sha256":"cd","extra":1}]}]}"#,
        #"{"format":"chat-conversation","version":3,"model":"m","messages":[{"role":"user","content":"x","#
            + #""images":null}]}"#,
        #"{"format":"chat-conversation","version":3,"model":"m","messages":[{"role":"user","content":"x","#
            + #""images":[{"path":"/a.png","mime_type":"image/png","size":"3","sha256":"ab"}]}]}"#,
        #"{"format":"chat-conversation","version":3,"model":"m","messages":[{"role":"user","content":"x","#
            + #""images":{}}]}"#,
        #"{"format":"chat-conversation","version":1,"model":"m","messages":{}}"#, #"[]"#, #"{}"#,
    ])
    func theFileReadsAsJSONDecoderReadsIt(_ text: String) throws {
        let decoded = try? JSONDecoder().decode(ConversationFileDTO.self, from: Data(text.utf8))
        let parsed = try? ConversationFileDTO(json: try JSONParser.parse(text))
        #expect(parsed == decoded)
    }
}
