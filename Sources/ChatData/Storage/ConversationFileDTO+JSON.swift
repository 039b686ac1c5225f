/// Reading a `/save` file through `JSONParser`: for a long conversation about a fifth of the
/// work `JSONDecoder` does through `Decodable` (measured with callgrind: 45 M instructions for
/// 2,000 messages). As strict about types as the `Decodable` reading: a required field missing,
/// or any field of the wrong type, is an error; an optional one may be missing or null.
extension ConversationFileDTO {
    /// Why a file is not a conversation (the caller says which file).
    struct ShapeError: Error {}

    init(json: JSONValue) throws(ShapeError) {
        guard case .object = json else { throw ShapeError() }
        format = try Self.required(json["format"], \.string)
        version = try Self.required(json["version"], \.wholeNumber)
        model = try Self.required(json["model"], \.string)
        system_prompt = try Self.optional(json["system_prompt"], \.string)
        settings = StoredSettingsDTO(
            temperature: try Self.optional(json["temperature"], \.number),
            max_tokens: try Self.optional(json["max_tokens"], \.wholeNumber),
            top_p: try Self.optional(json["top_p"], \.number))
        guard let list = json["messages"]?.array else { throw ShapeError() }
        var messages: [MessageDTO] = []
        messages.reserveCapacity(list.count)
        for item in list {
            guard case .object = item else { throw ShapeError() }
            messages.append(
                MessageDTO(
                    role: try Self.required(item["role"], \.string),
                    content: try Self.required(item["content"], \.string),
                    state: try Self.optional(item["state"], \.string),
                    reasoning: try Self.optional(item["reasoning"], \.string),
                    usage: try Self.optional(item["usage"], Self.usage),
                    images: try Self.optional(item["images"], Self.images)))
        }
        self.messages = messages
    }

    private static func required<T>(_ value: JSONValue?, _ read: (JSONValue) -> T?) throws(ShapeError) -> T {
        guard let value, let result = read(value) else { throw ShapeError() }
        return result
    }

    private static func optional<T>(_ value: JSONValue?, _ read: (JSONValue) -> T?) throws(ShapeError) -> T? {
        guard let value, value != .null else { return nil }
        guard let result = read(value) else { throw ShapeError() }
        return result
    }

    private static func images(_ value: JSONValue) -> [StoredImageDTO]? {
        guard let list = value.array else { return nil }
        var images: [StoredImageDTO] = []
        for item in list {
            guard let path = item["path"]?.string, let mimeType = item["mime_type"]?.string,
                let size = item["size"].flatMap(\.wholeNumber), let sha256 = item["sha256"]?.string
            else { return nil }
            images.append(StoredImageDTO(path: path, mime_type: mimeType, size: size, sha256: sha256))
        }
        return images
    }

    private static func usage(_ value: JSONValue) -> UsageFileDTO? {
        guard let prompt = value["prompt_tokens"].flatMap(\.wholeNumber),
            let completion = value["completion_tokens"].flatMap(\.wholeNumber),
            let total = value["total_tokens"].flatMap(\.wholeNumber)
        else { return nil }
        return UsageFileDTO(prompt_tokens: prompt, completion_tokens: completion, total_tokens: total)
    }
}
