/// `usage` as servers report it: the counts that are whole numbers.
struct UsageDTO: JSONObjectDTO, Equatable {
    var prompt_tokens: Int?
    var completion_tokens: Int?
    var total_tokens: Int?

    mutating func read(_ key: JSONKey, from reader: inout some JSONFieldReader) throws(JSONSyntaxError) {
        switch key {
        case "prompt_tokens": try reader.read(&prompt_tokens)
        case "completion_tokens": try reader.read(&completion_tokens)
        case "total_tokens": try reader.read(&total_tokens)
        default: try reader.skipValue()
        }
    }
}
