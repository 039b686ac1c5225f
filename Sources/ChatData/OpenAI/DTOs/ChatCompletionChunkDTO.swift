/// What chat uses of one `chat.completion.chunk` of a streamed answer, read leniently from its
/// JSON (see `init(json:)`); every other field, whatever its type or value, is ignored.
struct ChatCompletionChunkDTO: Equatable {
    struct ChoiceDTO: Equatable {
        /// The choice's index if it is a number; nil if it is missing or anything else.
        var index: Double?
        var delta: DeltaDTO?
        var finish_reason: String?
    }

    struct DeltaDTO: Equatable {
        var role: String?
        var content: String?
        var refusal: String?
        /// DeepSeek, llama.cpp and vLLM.
        var reasoning_content: String?
        /// Ollama and OpenRouter.
        var reasoning: String?
    }

    /// `"error"` in the flat error objects of older vLLM.
    var object: String?
    var choices: [ChoiceDTO]?
    var usage: UsageDTO?
}

extension ChatCompletionChunkDTO {
    /// The chunk in `json`, each field taken if it has the type chat reads it as and left out
    /// (nil) otherwise: `object` a string; `choices` an array, of which only the objects count;
    /// a choice's `index` a number, `delta` an object, `finish_reason` a string; a delta's texts
    /// strings; `usage` an object (see `UsageDTO`).
    init(json: JSONValue) {
        self.init(
            object: json["object"]?.string,
            choices: json["choices"]?.array?.compactMap(ChoiceDTO.init(json:)),
            usage: json["usage"].flatMap(UsageDTO.init(json:)))
    }
}

extension ChatCompletionChunkDTO.ChoiceDTO {
    /// The choice in `json`, if it is an object.
    init?(json: JSONValue) {
        guard json.isObject else { return nil }
        self.init(
            index: json["index"]?.number,
            delta: json["delta"].flatMap(ChatCompletionChunkDTO.DeltaDTO.init(json:)),
            finish_reason: json["finish_reason"]?.string)
    }
}

extension ChatCompletionChunkDTO.DeltaDTO {
    /// The delta in `json`, if it is an object: its texts that are strings.
    init?(json: JSONValue) {
        guard json.isObject else { return nil }
        self.init(
            role: json["role"]?.string, content: json["content"]?.string, refusal: json["refusal"]?.string,
            reasoning_content: json["reasoning_content"]?.string, reasoning: json["reasoning"]?.string)
    }
}
