import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// `usage` as servers report it: the counts that are whole numbers.
struct UsageDTO: JSONObjectDTO, Equatable {
    /// `prompt_tokens_details`: of the prompt, what the server had cached, and what it wrote to
    /// its cache (billed from GPT-5.6 on).
    struct PromptDetailsDTO: JSONObjectDTO, Equatable {
        var cached_tokens: Int?
        var cache_write_tokens: Int? = nil

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "cached_tokens": try reader.read(&cached_tokens)
            case "cache_write_tokens": try reader.read(&cache_write_tokens)
            default: try reader.skipValue()
            }
        }
    }

    /// `completion_tokens_details`: of the answer, what the model spent reasoning.
    struct CompletionDetailsDTO: JSONObjectDTO, Equatable {
        var reasoning_tokens: Int?

        mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
            switch key {
            case "reasoning_tokens": try reader.read(&reasoning_tokens)
            default: try reader.skipValue()
            }
        }
    }

    var prompt_tokens: Int?
    var completion_tokens: Int?
    var total_tokens: Int?
    var prompt_tokens_details: PromptDetailsDTO?
    var completion_tokens_details: CompletionDetailsDTO?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "prompt_tokens": try reader.read(&prompt_tokens)
        case "completion_tokens": try reader.read(&completion_tokens)
        case "total_tokens": try reader.read(&total_tokens)
        case "prompt_tokens_details": try reader.read(&prompt_tokens_details)
        case "completion_tokens_details": try reader.read(&completion_tokens_details)
        default: try reader.skipValue()
        }
    }
}
