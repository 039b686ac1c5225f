import ChatDomain
import ChatJSON
import ChatRendering

/// How stored tool rounds read in `--show` and `--export`: each call's server and tool (from
/// its `server__tool` name), its arguments and its result's text, all made safe (a tool's text
/// is data: no control character of it reaches the terminal). `--show` cuts long arguments and
/// results; `--export` keeps them whole.
struct ToolRoundText {
    /// The most characters of a result (and of arguments) shown; nil: all of them.
    let limit: Int?

    /// `server__tool` as its server and tool; a name with no `__` is a tool with no server.
    static func split(_ name: String) -> (server: String?, tool: String) {
        var index = name.startIndex
        while index < name.endIndex {
            let next = name.index(after: index)
            if name[index] == "_", next < name.endIndex, name[next] == "_" {
                let rest = name.index(after: next)
                guard index != name.startIndex, rest != name.endIndex else { return (nil, name) }
                return (String(name[..<index]), String(name[rest...]))
            }
            index = next
        }
        return (nil, name)
    }

    /// `server time, tool get_current_time` (or `tool NAME` when it names no server), one safe line.
    static func describe(_ name: String) -> String {
        let (server, tool) = split(name)
        let toolText = "tool " + ServerText.line(tool, limit: 120)
        return server.map { "server " + ServerText.line($0, limit: 120) + ", " + toolText } ?? toolText
    }

    /// The call's arguments as JSON on one line (the text the model sent, if it was not JSON),
    /// made safe and cut at `limit`.
    func arguments(_ call: ToolCall) -> String {
        let text: String
        if case .string(let raw) = call.arguments {
            text = raw
        } else {
            text = call.arguments.jsonText ?? "(not shown)"
        }
        return cut(ServerText.line(text, limit: Int.max))
    }

    /// The result's text (its text parts, a line in place of each image), made safe (line
    /// breaks and tabs kept) and cut at `limit`, saying how much was left out.
    func result(_ result: ToolResult) -> String {
        cut(ControlSanitizer.safe(result.text))
    }

    private func cut(_ text: String) -> String {
        guard let limit, text.count > limit else { return text }
        let left = text.count - limit
        return String(text.prefix(limit)) + "… [\(left) more characters; --export shows them all]"
    }

    /// The names of the calls `messages` make, by call id: what a result names.
    static func names(in messages: [ChatMessage]) -> [String: String] {
        var names: [String: String] = [:]
        for message in messages where message.hasToolCalls {
            for call in message.toolCalls { names[call.id] = call.name }
        }
        return names
    }

    /// A fence for `text` in Markdown: longer than any run of backticks in it.
    static func fence(for text: String) -> String {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        return String(repeating: "`", count: max(3, longest + 1))
    }
}
