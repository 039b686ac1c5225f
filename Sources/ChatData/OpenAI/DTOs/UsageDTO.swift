/// `usage` as servers report it: the counts that are whole numbers.
struct UsageDTO: Equatable {
    var prompt_tokens: Int?
    var completion_tokens: Int?
    var total_tokens: Int?
}

extension UsageDTO {
    /// The usage in `json`, if it is an object; a count that is not a whole number is left out.
    init?(json: JSONValue) {
        guard json.isObject else { return nil }
        self.init(
            prompt_tokens: json["prompt_tokens"]?.wholeNumber,
            completion_tokens: json["completion_tokens"]?.wholeNumber,
            total_tokens: json["total_tokens"]?.wholeNumber)
    }
}
