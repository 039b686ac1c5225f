import ChatDomain
import ChatJSON

/// One event of a Responses stream, for what chat reads of it (its `type` says which; the SSE
/// `event:` line, which some servers leave out, is not needed): a piece of text, refusal or
/// reasoning summary (`delta`, with its item's `item_id` and the summary part's
/// `summary_index`), an output item done (`item`), the whole response at its end
/// (`response`), or an error: `message` and `code` as documented, or nested in `error` as the
/// live API sends them.
struct ResponsesEventDTO: JSONObjectDTO, Equatable {
    var type: String?
    var delta: String?
    var item_id: String?
    var summary_index: Int?
    var item: ResponsesItemDTO?
    var response: ResponseDTO?
    var message: String?
    var code: JSONValue?
    var error: ResponseDTO.ErrorDTO?
    /// `response.output_text.annotation.added`'s annotation (a `url_citation`'s `url`, `title`).
    var annotation: JSONValue?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "type": try reader.read(&type)
        case "annotation": try reader.read(&annotation)
        case "delta": try reader.read(&delta)
        case "item_id": try reader.read(&item_id)
        case "summary_index": try reader.read(&summary_index)
        case "item": try reader.read(&item)
        case "response": try reader.read(&response)
        case "message": try reader.read(&message)
        case "code": try reader.read(&code)
        case "error": try reader.read(&error)
        default: try reader.skipValue()
        }
    }
}

/// An output item: a `message` (its `content` parts), a `reasoning` item (its `summary` parts
/// and `encrypted_content`), a `function_call` (`call_id`, `name`, `arguments`), a
/// `web_search_call` (`id`, `status`, `action`).
struct ResponsesItemDTO: JSONObjectDTO, Equatable {
    var type: String?
    var id: String?
    var status: String?
    var action: JSONValue?
    var call_id: String?
    var name: String?
    var arguments: String?
    var encrypted_content: String?
    var summary: [ResponsesPartDTO]?
    var content: [ResponsesPartDTO]?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "type": try reader.read(&type)
        case "id": try reader.read(&id)
        case "status": try reader.read(&status)
        case "action": try reader.read(&action)
        case "call_id": try reader.read(&call_id)
        case "name": try reader.read(&name)
        case "arguments": try reader.read(&arguments)
        case "encrypted_content": try reader.read(&encrypted_content)
        case "summary": try reader.read(&summary)
        case "content": try reader.read(&content)
        default: try reader.skipValue()
        }
    }
}

/// A part of an item: `output_text` or `summary_text` (`text`, and an output text's
/// `annotations`), `refusal` (`refusal`).
struct ResponsesPartDTO: JSONObjectDTO, Equatable {
    var type: String?
    var text: String?
    var refusal: String?
    var annotations: [JSONValue]?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "type": try reader.read(&type)
        case "text": try reader.read(&text)
        case "refusal": try reader.read(&refusal)
        case "annotations": try reader.read(&annotations)
        default: try reader.skipValue()
        }
    }
}

/// A response, whole (`--no-stream`, and in `response.completed`, `.incomplete`, `.failed`):
/// its status, output items, usage, why it is incomplete, its error.
struct ResponseDTO: JSONObjectDTO, Equatable {
    /// `{"reason": "max_output_tokens"}`.
    struct IncompleteDTO: JSONObjectDTO, Equatable {
        var reason: String?

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "reason": try reader.read(&reason)
            default: try reader.skipValue()
            }
        }
    }

    /// `{"code", "message"}`.
    struct ErrorDTO: JSONObjectDTO, Equatable {
        var code: JSONValue?
        var message: String?

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "code": try reader.read(&code)
            case "message": try reader.read(&message)
            default: try reader.skipValue()
            }
        }

        /// What it says, in one line.
        var summary: String {
            let code = self.code?.string.map { " (\($0))" } ?? ""
            return (message ?? "no message") + code
        }
    }

    var status: String?
    var output: [ResponsesItemDTO]?
    var usage: ResponsesUsageDTO?
    /// The model that answered, as the server names it.
    var model: String?
    var incomplete_details: IncompleteDTO?
    var error: ErrorDTO?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "status": try reader.read(&status)
        case "output": try reader.read(&output)
        case "usage": try reader.read(&usage)
        case "model": try reader.read(&model)
        case "incomplete_details": try reader.read(&incomplete_details)
        case "error": try reader.read(&error)
        default: try reader.skipValue()
        }
    }
}

/// `usage`: `input_tokens` (cached ones included, as `input_tokens_details.cached_tokens`),
/// `output_tokens` (reasoning ones included, as `output_tokens_details.reasoning_tokens`).
struct ResponsesUsageDTO: JSONObjectDTO, Equatable {
    struct DetailsDTO: JSONObjectDTO, Equatable {
        var cached_tokens: Int?
        var cache_write_tokens: Int?
        var reasoning_tokens: Int?

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "cached_tokens": try reader.read(&cached_tokens)
            case "cache_write_tokens": try reader.read(&cache_write_tokens)
            case "reasoning_tokens": try reader.read(&reasoning_tokens)
            default: try reader.skipValue()
            }
        }
    }

    var input_tokens: Int?
    var output_tokens: Int?
    var total_tokens: Int?
    var input_tokens_details: DetailsDTO?
    var output_tokens_details: DetailsDTO?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "input_tokens": try reader.read(&input_tokens)
        case "output_tokens": try reader.read(&output_tokens)
        case "total_tokens": try reader.read(&total_tokens)
        case "input_tokens_details": try reader.read(&input_tokens_details)
        case "output_tokens_details": try reader.read(&output_tokens_details)
        default: try reader.skipValue()
        }
    }

    /// The domain's usage, or nil when the server sent no counts.
    func toDomain() -> TokenUsage? {
        guard input_tokens != nil || output_tokens != nil else { return nil }
        return TokenUsage(
            promptTokens: input_tokens ?? 0, completionTokens: output_tokens ?? 0, totalTokens: total_tokens,
            cacheReadTokens: input_tokens_details?.cached_tokens,
            cacheWriteTokens: input_tokens_details?.cache_write_tokens,
            reasoningTokens: output_tokens_details?.reasoning_tokens)
    }
}
