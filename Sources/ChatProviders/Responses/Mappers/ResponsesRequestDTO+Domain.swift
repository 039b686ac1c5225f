import ChatDomain
import ChatHTTP

extension ResponsesRequestDTO {
    /// The wire form of `request`: system messages as `instructions`; the conversation as input
    /// items (earlier answers as assistant messages, their reasoning items and function calls,
    /// each without the server's ids; tool results as `function_call_output`, whose `output` is
    /// parts when it holds images; each image a note where the model takes none, `takesImages`
    /// false, or its bytes are gone); sampling where the API has it; `reasoning` (and the
    /// encrypted reasoning asked for, when `includeEncrypted`) when an effort is set or the model
    /// reasons; the tools offered; a schema as `text.format`. Throws
    /// `ChatError.unsupportedSetting` for a parameter the API does not take.
    init(_ request: ChatRequest, includeEncrypted: Bool, showsReasoning: Bool, takesImages: Bool = true)
        throws(ChatError)
    {
        let settings = request.settings
        self.init()
        model = settings.model
        stream = settings.stream
        var effort: ReasoningEffort?
        for parameter in SamplingParameter.allCases {
            guard let value = settings.sampling[parameter] else { continue }
            switch parameter {
            case .temperature: temperature = value.number
            case .topP: top_p = value.number
            case .maxTokens: max_output_tokens = value.wholeNumber ?? Int(value.number ?? 0)
            case .seed: throw .unsupportedSetting(name: "seed", provider: ProviderKind.openAIResponses.rawValue)
            case .effort: effort = value.effort
            }
        }
        if effort != nil || OpenAIModels.reasons(settings.model) {
            // `max` is this API's `xhigh`, its highest.
            reasoning = ReasoningDTO(
                effort: effort.map { $0 == .max ? "xhigh" : $0.rawValue },
                summary: showsReasoning && effort != ReasoningEffort.none ? "auto" : nil)
            if includeEncrypted { include = ["reasoning.encrypted_content"] }
        }
        let system = request.messages.filter { $0.role == .system }.map(\.content).filter { !$0.isEmpty }
        instructions = system.isEmpty ? nil : system.joined(separator: "\n\n")
        let offered = request.tools.map {
            ToolDTO(
                name: $0.name, description: $0.description.isEmpty ? nil : $0.description, parameters: $0.parameters)
        }
        tools = offered.isEmpty ? nil : offered
        if let schema = settings.responseSchema {
            text = TextDTO(format: TextDTO.FormatDTO(name: schema.name, schema: schema.schema))
        }
        var items = Items(takesTools: tools != nil, takesImages: takesImages)
        for message in request.messages {
            switch message.role {
            case .system: continue
            case .user: items.add(user: message)
            case .assistant: items.add(answer: message)
            case .tool: items.add(results: message.toolResults)
            }
        }
        input = items.wire
        sentAsText = items.sentAsText
    }

    /// The input items as they are written, and the calls sent as `function_call` items.
    private struct Items {
        let takesTools: Bool
        let takesImages: Bool
        var wire: [ItemDTO] = []
        var sentAsText = false
        private var sentCalls: [String: String] = [:]
        /// The calls sent as text, by id: their results name them.
        private var textCalls: [String: String] = [:]

        init(takesTools: Bool, takesImages: Bool) {
            self.takesTools = takesTools
            self.takesImages = takesImages
        }

        /// A person's message: its text, then each image (a note in its place: `SentImage`).
        mutating func add(user message: ChatMessage) {
            var parts = message.content.isEmpty ? [] : [PartDTO(type: "input_text", text: message.content)]
            for image in message.images {
                parts.append(Self.part(SentImage(image, takesImages: takesImages)))
            }
            guard !parts.isEmpty else { return }
            wire.append(ItemDTO(type: "message", role: "user", content: parts))
        }

        /// An answer: its reasoning items (this API's, sent back whole; another provider's
        /// thinking as text), its text as an assistant message, its calls as `function_call`
        /// items (as text when no tools are offered), in the order they came.
        mutating func add(answer: ChatMessage) {
            var text = ""
            /// The text ends with another provider's thinking: a blank line goes before more.
            var afterThinking = false
            func flush() {
                guard !text.isEmpty else { return }
                wire.append(
                    ItemDTO(type: "message", role: "assistant", content: [PartDTO(type: "output_text", text: text)]))
                text = ""
                afterThinking = false
            }
            func append(_ piece: String) {
                guard !piece.isEmpty else { return }
                if afterThinking { text += "\n\n" }
                text += piece
                afterThinking = false
            }
            // A reasoning item goes back only before the call it led to: when the calls go as
            // text (no tools offered), so does the reasoning, as another provider's would.
            let callsAsText = !takesTools && answer.parts.contains { if case .toolCall = $0 { true } else { false } }
            for part in answer.parts {
                switch part {
                case .thinking(.encryptedReasoning(let summary, let content)) where !callsAsText:
                    // Without its encrypted content an item cannot go back (its id is not kept).
                    guard !content.isEmpty else { continue }
                    flush()
                    wire.append(
                        ItemDTO(
                            type: "reasoning", summary: summary.map { SummaryDTO(text: $0) }, encrypted_content: content
                        ))
                case .thinking(let block):
                    if let shown = block.textForAnotherProvider {
                        text += (text.isEmpty ? "" : "\n\n") + shown
                        afterThinking = true
                        sentAsText = true
                    }
                case .text(let piece):
                    append(piece)
                case .image(let image):
                    append(image.unavailableNote)
                case .toolCall(let call):
                    guard takesTools else {
                        // Each call on a line of its own.
                        if !text.isEmpty && !afterThinking { text += "\n" }
                        append(ToolRoundWireText.call(name: call.name, arguments: call.argumentsText))
                        textCalls[call.id] = call.name
                        sentAsText = true
                        continue
                    }
                    flush()
                    sentCalls[call.id] = call.name
                    wire.append(
                        ItemDTO(type: "function_call", call_id: call.id, name: call.name, arguments: call.argumentsText)
                    )
                case .webSearch(.item(let item)):
                    flush()
                    wire.append(
                        ItemDTO(type: "web_search_call", status: item["status"]?.string, action: item["action"]))
                case .toolResult, .webSearch, .citation:
                    continue
                }
            }
            flush()
        }

        /// Results: a `function_call_output` for each call sent as a `function_call`; the others
        /// as text in a user message.
        mutating func add(results: [ToolResult]) {
            var texts: [String] = []
            for result in results {
                if sentCalls.removeValue(forKey: result.callID) != nil {
                    wire.append(
                        ItemDTO(type: "function_call_output", call_id: result.callID, output: output(of: result)))
                } else {
                    texts.append(ToolRoundWireText.result(result, name: textCalls.removeValue(forKey: result.callID)))
                    sentAsText = true
                }
            }
            if !texts.isEmpty {
                wire.append(
                    ItemDTO(
                        type: "message", role: "user",
                        content: [PartDTO(type: "input_text", text: texts.joined(separator: "\n"))]))
            }
        }

        /// A result's `output`: its text (beginning `Error:` for a failed call: the item has no
        /// field for it), or, when it holds images to send, its text and images as parts, in order.
        private func output(of result: ToolResult) -> OutputDTO {
            let content = ToolResultContent(result, takesImages: takesImages)
            if let text = content.onlyText { return .text(text) }
            return .parts(
                content.pieces.map { piece in
                    switch piece {
                    case .text(let text): PartDTO(type: "input_text", text: text)
                    case .image(let sent, _): Self.part(sent)
                    }
                })
        }

        /// An image as an `input_image` part (a data URL, `detail` `auto`), a PDF as an
        /// `input_file` part, or its note as text.
        private static func part(_ image: SentImage) -> PartDTO {
            switch image {
            case .bytes: PartDTO(type: "input_image", image_url: image.dataURL, detail: "auto")
            case .pdf(let name, _): PartDTO(type: "input_file", filename: name, file_data: image.pdfDataURL)
            case .note(let note): PartDTO(type: "input_text", text: note)
            }
        }
    }
}
