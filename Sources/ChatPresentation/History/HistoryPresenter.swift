import ChatDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Shows stored conversations: `--list`, `--search`, `--show`, `--export … --format markdown`,
/// and the REPL's `/conversations`. Plain text when the output is not a terminal.
public struct HistoryPresenter {
    private let output: any OutputSink
    private let style: TerminalStyle

    /// Writes to `output` in `style`.
    public init(output: any OutputSink, style: TerminalStyle) {
        self.output = output
        self.style = style
    }

    /// The most characters of a tool's result (or a call's arguments) `show` writes.
    static let shownToolTextLimit = 2_000

    /// One line per conversation: short id, date, model, turns, title. A search's snippet
    /// follows: on a terminal on a line of its own, the matched words highlighted; elsewhere at
    /// the end of the line, so each conversation stays one line.
    public func list(_ summaries: [ConversationSummary]) {
        var text = ""
        for summary in summaries {
            let turns = summary.turns == 1 ? "1 turn" : "\(summary.turns) turns"
            text +=
                style.bold(summary.id) + "  " + style.dim(Self.date(summary.updatedAt)) + "  "
                + summary.model + "  " + style.dim(turns) + "  " + summary.title
            if let origin = summary.branchedFrom { text += style.dim("  (\(Self.describe(origin)))") }
            if let snippet = summary.snippet {
                if style.colour {
                    text +=
                        "\n          "
                        + snippet.parts.map { $0.isMatch ? style.match($0.text) : style.dim($0.text) }
                        .joined()
                } else {
                    text += "  " + snippet.text
                }
            }
            text += "\n"
        }
        output.write(text)
    }

    /// The whole conversation (the branch it shows), both sides; an answer's cited sources after
    /// it, as they were listed when it came.
    public func show(_ conversation: Conversation) {
        var text = ""
        if let origin = conversation.branchedFrom { text += style.dim(Self.describe(origin)) + "\n\n" }
        if let system = conversation.systemPrompt, !system.isEmpty {
            text += style.dim("system: ") + system + "\n\n"
        }
        let tools = ToolRoundText(limit: Self.shownToolTextLimit)
        let names = ToolRoundText.names(in: conversation.messages)
        for (index, message) in conversation.messages.enumerated() {
            if let compaction = conversation.compaction, index == compaction.coveredMessages {
                text += Self.summaryText(compaction, style: style)
            }
            guard message.role != .tool else {
                for result in message.toolResults {
                    let name = names[result.callID].map(ToolRoundText.describe) ?? "an unknown call"
                    text += style.bold("tool result:") + " " + style.dim(name) + (result.isError ? " (error)" : "")
                    text += "\n" + tools.result(result) + "\n\n"
                }
                continue
            }
            text += style.bold(message.role == .user ? "you:" : "assistant:") + Self.mark(message.state)
            text += Self.marks(message).map { style.dim($0) } ?? ""
            if let cost = message.usage?.costUSD { text += style.dim(" " + Dollars.text(cost)) }
            text += "\n"
            if !message.content.isEmpty || !message.hasToolCalls { text += message.content + "\n" }
            // The sources it cites, listed after it as when it was answered.
            text += AnswerSources(message.citations).list(hyperlinks: false)
            for image in message.images { text += style.dim(Self.describe(image)) + "\n" }
            for call in message.toolCalls {
                text += style.dim("tool call: " + ToolRoundText.describe(call.name)) + "\n"
                text += style.dim("  arguments: ") + tools.arguments(call) + "\n"
            }
            text += "\n"
        }
        if let compaction = conversation.compaction, compaction.coveredMessages == conversation.messages.count {
            text += Self.summaryText(compaction, style: style)
        }
        output.write(text)
    }

    /// Where a compaction applies: the summary that later requests carried in place of the
    /// messages above it.
    static func summaryText(_ compaction: Compaction, style: TerminalStyle) -> String {
        style.bold("summary:")
            + style.dim(
                " (compacted: requests after this point carry this in place of the "
                    + "\(Counted.text(compaction.coveredMessages, "message")) above)") + "\n" + compaction.summary
            + "\n\n"
    }

    /// `branched from k3v9x2qa at turn 2`.
    public static func describe(_ origin: BranchPoint) -> String {
        "branched from \(origin.conversationID) at turn \(origin.turn)"
    }

    /// An attached image or PDF as the history knows it: a file on disk by what identifies it,
    /// one fetched from a URL kept whole.
    public static func describe(_ image: ImageAttachment) -> String {
        let kind = image.isPDF ? "PDF" : "image"
        let head =
            "[\(kind) \(image.path), \(ByteCount.text(image.byteCount)) \(image.mimeType), sha256 "
            + "\(image.sha256.prefix(12))…; "
        if image.fetched {
            return head + (image.data == nil ? "fetched; its bytes are not in the history]" : "kept in the history]")
        }
        return head + "the history keeps this, not the \(kind)"
            + (image.data == nil ? "; the file is no longer there as it was]" : "]")
    }

    /// The conversation as Markdown.
    public func markdown(_ conversation: Conversation) {
        var text = "# \(conversation.title ?? "Conversation \(conversation.id ?? "")")\n\n"
        let provider = conversation.settings.provider.map { " (provider \($0))" } ?? ""
        text += "Model: \(conversation.settings.model)\(provider)\n\n"
        if let origin = conversation.branchedFrom { text += Self.describe(origin).capitalizedFirst + ".\n\n" }
        if let system = conversation.systemPrompt, !system.isEmpty {
            text += "## System\n\n\(system)\n\n"
        }
        let tools = ToolRoundText(limit: nil)
        let names = ToolRoundText.names(in: conversation.messages)
        for message in conversation.messages {
            guard message.role != .tool else {
                for result in message.toolResults {
                    let name = names[result.callID].map(ToolRoundText.describe) ?? "an unknown call"
                    let body = tools.result(result)
                    let fence = ToolRoundText.fence(for: body)
                    text += "## Tool result: \(name)\(result.isError ? " (error)" : "")\n\n"
                    text += "\(fence)text\n\(body)\n\(fence)\n\n"
                }
                continue
            }
            text += "## \(message.role == .user ? "You" : "Assistant")\(Self.mark(message.state))"
            text += (Self.marks(message) ?? "") + "\n\n"
            if !message.content.isEmpty || !message.hasToolCalls { text += "\(message.content)\n\n" }
            let sources = AnswerSources(message.citations).lines
            if !sources.isEmpty { text += "Sources:\n\n" + sources.map { "- \($0)\n" }.joined() + "\n" }
            for image in message.images { text += Self.describe(image) + "\n\n" }
            for call in message.toolCalls {
                let arguments = tools.arguments(call)
                let fence = ToolRoundText.fence(for: arguments)
                text += "Tool call: \(ToolRoundText.describe(call.name))\n\n\(fence)json\n\(arguments)\n\(fence)\n\n"
            }
        }
        output.write(text)
    }

    /// ` (profile claude, claude-haiku-4-5; resumed)`: who gave an answer in place of the
    /// conversation's own profile (`fallback`), and whether its stream was resumed; nil for neither.
    private static func marks(_ message: ChatMessage) -> String? {
        var marks: [String] = []
        if let by = message.answeredBy { marks.append("profile \(by.profile), \(by.model)") }
        if message.resumed { marks.append("resumed") }
        return marks.isEmpty ? nil : " (" + marks.joined(separator: "; ") + ")"
    }

    private static func mark(_ state: MessageState) -> String {
        switch state {
        case .complete: return ""
        case .interrupted: return " (interrupted)"
        case .failed: return " (failed)"
        }
    }

    /// `2026-11-21 23:40`, local time.
    static func date(_ seconds: Double) -> String {
        var time = time_t(seconds)
        var fields = tm()
        localtime_r(&time, &fields)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%d %H:%M", &fields)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

extension String {
    /// The text with its first letter in capitals.
    fileprivate var capitalizedFirst: String {
        prefix(1).uppercased() + dropFirst()
    }
}
