/// A conversation as `/save` writes it: JSON, versioned so later releases can read old files.
struct ConversationFileDTO: Codable, Equatable {
    struct MessageDTO: Codable, Equatable {
        var role: String
        var content: String
        var state: String?
        var reasoning: String?
        var usage: UsageFileDTO?
        /// The images sent with it: what identifies them, never their bytes.
        var images: [StoredImageDTO]?
    }

    struct UsageFileDTO: Codable, Equatable {
        var prompt_tokens: Int
        var completion_tokens: Int
        var total_tokens: Int
    }

    var format: String
    var version: Int
    var model: String
    var system_prompt: String?
    /// Written flat, beside `model`, where version 1 wrote `temperature` and `max_tokens`.
    var settings: StoredSettingsDTO
    var messages: [MessageDTO]

    private enum CodingKeys: String, CodingKey {
        case format, version, model, system_prompt, messages
    }
}

extension ConversationFileDTO {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(String.self, forKey: .format)
        version = try container.decode(Int.self, forKey: .version)
        model = try container.decode(String.self, forKey: .model)
        system_prompt = try container.decodeIfPresent(String.self, forKey: .system_prompt)
        settings = try StoredSettingsDTO(from: decoder)
        messages = try container.decode([MessageDTO].self, forKey: .messages)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(version, forKey: .version)
        try container.encode(model, forKey: .model)
        try container.encodeIfPresent(system_prompt, forKey: .system_prompt)
        try container.encode(messages, forKey: .messages)
        try settings.encode(to: encoder)
    }
}
