import ChatDomain
import ChatJSON

/// One part of a message as the history's `parts` column and `/save` files keep it, by its
/// `type`: `text` (`text`), `image` (`image`: what identifies it, never its bytes), `tool_call`
/// (`id`, `name`, `arguments`), `tool_result` (`id` of the call, `content`: parts, `is_error`
/// when it failed), `thinking` (`text`, `signature`), `redacted_thinking` (`data`) and
/// `reasoning` (an OpenAI reasoning item: `summary`, its parts, and `data`, the encrypted
/// reasoning), `server_tool_use` (a web search the server ran: `id`, `name`, `arguments`, its
/// input), `web_search_tool_result` (`id` of the search, `value`: what it found, as sent) and
/// `web_search_call` (`value`: a Responses item), and `citation` (a source the answer cites:
/// `url`, `title`, and `value`, the provider's citation object as it came). A new kind of part
/// is a new `type` and, if it needs one, a new field here: no schema change. A type this
/// release does not know (a newer one wrote it) is left out.
struct StoredPartDTO: JSONFields, Equatable {
    var type = ""
    var text: String?
    var image: StoredImageDTO?
    var id: String?
    var name: String?
    var arguments: JSONValue?
    var content: [StoredPartDTO]?
    var is_error: Bool?
    var signature: String?
    var data: String?
    var summary: [String]?
    var value: JSONValue?
    var url: String?
    var title: String?

    static let fields: [JSONField<Self>] = [
        JSONField("type", { $0.type }, { $0.type = $1 }),
        JSONField("text", optional: { $0.text }, { $0.text = $1 }),
        JSONField("image", optional: { $0.image }, { $0.image = $1 }),
        JSONField("id", optional: { $0.id }, { $0.id = $1 }),
        JSONField("name", optional: { $0.name }, { $0.name = $1 }),
        JSONField("arguments", optional: { $0.arguments }, { $0.arguments = $1 }),
        JSONField("content", optional: { $0.content }, { $0.content = $1 }),
        JSONField("is_error", optional: { $0.is_error }, { $0.is_error = $1 }),
        JSONField("signature", optional: { $0.signature }, { $0.signature = $1 }),
        JSONField("data", optional: { $0.data }, { $0.data = $1 }),
        JSONField("summary", optional: { $0.summary }, { $0.summary = $1 }),
        JSONField("value", optional: { $0.value }, { $0.value = $1 }),
        JSONField("url", optional: { $0.url }, { $0.url = $1 }),
        JSONField("title", optional: { $0.title }, { $0.title = $1 }),
    ].sortedByName()
}
