/// What chat uses of a whole `chat.completion`, the answer to a request with `stream: false`,
/// read leniently as `ChatCompletionChunkDTO` is.
struct ChatCompletionDTO {
    struct ChoiceDTO {
        /// The choice's index if it is a number.
        var index: Double?
        var message: MessageDTO?
        var finish_reason: String?
    }

    /// A whole answer's `message` has the fields of a chunk's `delta`.
    typealias MessageDTO = ChatCompletionChunkDTO.DeltaDTO

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
