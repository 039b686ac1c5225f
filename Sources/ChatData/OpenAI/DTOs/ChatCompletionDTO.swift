/// What chat uses of a whole `chat.completion`, the answer to a request with `stream: false`,
/// read leniently as `ChatCompletionChunkDTO` is.
struct ChatCompletionDTO {
    struct ChoiceDTO {
        /// The choice's index if it is a number.
        var index: Double?
        var message: MessageDTO?
        var finish_reason: String?
    }

    struct MessageDTO {
        var role: String?
        var content: String?
        var refusal: String?
        var reasoning_content: String?
        var reasoning: String?
    }

    var choices: [ChoiceDTO]?
    var usage: UsageDTO?
}

extension ChatCompletionDTO {
    /// The completion in `json`; fields of another type than chat reads them as are left out.
    init(json: JSONValue) {
        self.init(
            choices: json["choices"]?.array?.compactMap { choice in
                guard choice.isObject else { return nil }
                return ChoiceDTO(
                    index: choice["index"]?.number, message: choice["message"].flatMap(MessageDTO.init(json:)),
                    finish_reason: choice["finish_reason"]?.string)
            },
            usage: json["usage"].flatMap(UsageDTO.init(json:)))
    }
}

extension ChatCompletionDTO.MessageDTO {
    /// The message in `json`, if it is an object: its texts that are strings.
    init?(json: JSONValue) {
        guard json.isObject else { return nil }
        self.init(
            role: json["role"]?.string, content: json["content"]?.string, refusal: json["refusal"]?.string,
            reasoning_content: json["reasoning_content"]?.string, reasoning: json["reasoning"]?.string)
    }
}
