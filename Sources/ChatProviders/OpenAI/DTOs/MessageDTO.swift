import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// A message as an answer carries it: a streamed chunk's `delta` (a piece of it) or a whole
/// answer's `message`.
struct MessageDTO: JSONObjectDTO, Equatable {
    var role: String?
    var content: String?
    var refusal: String?
    /// DeepSeek, llama.cpp and vLLM.
    var reasoning_content: String?
    /// Ollama and OpenRouter.
    var reasoning: String?
    /// The tools the model calls; streamed in fragments, by `index` (`ToolCallAssembly`).
    var tool_calls: [ToolCallDTO]?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "role": try reader.read(&role)
        case "content": try reader.read(&content)
        case "refusal": try reader.read(&refusal)
        case "reasoning_content": try reader.read(&reasoning_content)
        case "reasoning": try reader.read(&reasoning)
        case "tool_calls": try reader.read(&tool_calls)
        default: try reader.skipValue()
        }
    }
}
