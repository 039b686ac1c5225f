import ChatDomain

/// `/prompt SERVER.NAME [ARG=VALUE …]`: fetches a prompt of an MCP server that is on and sends
/// its messages as the next question (their text and images, with anything attached); a required
/// argument not given is asked for on the terminal. A prompt with the assistant's messages in it
/// is sent as one question, each message's text under its role.
struct PromptCommand: SlashCommand {
    let names = ["prompt"]
    let usage = "/prompt SERVER.NAME [ARG=VALUE ...]"
    let summary = "send a prompt of an MCP server as the next question (/prompts lists them)"

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        let word = CompletionContext.lastWord(of: argument)
        guard !argument.contains(where: \.isWhitespace) else { return [] }
        return context.source.toolPromptNames().filter { $0.hasPrefix(word) }
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let tools = context.toolServers, let catalogue = context.toolCatalogue else { return .proceed }
        guard let argument, let words = Self.words(argument), let reference = words.first else {
            context.failure("give a prompt: /prompt SERVER.NAME [ARG=VALUE ...] (/prompts lists them)")
            return .proceed
        }
        guard let (server, name) = Self.split(reference, servers: tools.switch.servers) else {
            context.failure("give the prompt as SERVER.NAME, not \(ServerText.line(reference, limit: 80))")
            return .proceed
        }
        guard context.isOn(server, in: tools) else { return .proceed }
        var arguments: [String: String] = [:]
        for word in words.dropFirst() {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex else {
                context.failure("give each argument as NAME=VALUE, not \(ServerText.line(word, limit: 80))")
                return .proceed
            }
            arguments[String(word[..<equals])] = String(word[word.index(after: equals)...])
        }
        let prompts = await catalogue.prompts()
        guard let prompt = prompts.first(where: { $0.server == server && $0.name == name }) else {
            let theirs = prompts.filter { $0.server == server }.map { ServerText.line($0.name, limit: 60) }
            context.failure(
                "MCP server \(server) offers no prompt named \(ServerText.line(name, limit: 60))"
                    + (theirs.isEmpty ? " (it offers none)" : "; its prompts: " + theirs.joined(separator: ", ")))
            return .proceed
        }
        let known = Set(prompt.arguments.map(\.name))
        if let stray = arguments.keys.sorted().first(where: { !known.contains($0) }) {
            let names = prompt.arguments.map { ServerText.line($0.name, limit: 40) }
            context.failure(
                "prompt \(server).\(ServerText.line(name, limit: 60)) takes no argument \(ServerText.line(stray, limit: 40))"
                    + (names.isEmpty ? " (it takes none)" : "; its arguments: " + names.joined(separator: ", ")))
            return .proceed
        }
        for wanted in prompt.arguments where wanted.isRequired && arguments[wanted.name] == nil {
            guard let value = await ask(wanted, prompt: prompt, in: context) else { return .proceed }
            arguments[wanted.name] = value
        }
        switch await catalogue.prompt(server: server, name: name, arguments: arguments) {
        case .failure(let failure):
            context.failure(
                "prompt \(server).\(ServerText.line(name, limit: 60)): " + ErrorWording.text(for: failure))
        case .success(let fetched):
            guard !fetched.messages.isEmpty else {
                context.failure("prompt \(server).\(ServerText.line(name, limit: 60)) has no messages; nothing sent")
                return .proceed
            }
            await context.send(Self.question(fetched.messages, attached: context.attachments))
            context.attachments = Attachments()
        }
        return .proceed
    }

    /// Asks the person for `argument`'s value on the terminal; nil (having said so) when there is
    /// no one to ask, or they stopped.
    private func ask(_ argument: ToolServerPromptArgument, prompt: ToolServerPrompt, in context: REPLContext)
        async -> String?
    {
        let shown = ServerText.line(argument.name, limit: 40)
        guard context.parts.reader.readsTerminal else {
            context.failure(
                "prompt \(prompt.server).\(ServerText.line(prompt.name, limit: 60)) needs \(shown): give it as \(shown)=VALUE"
            )
            return nil
        }
        if let description = argument.description, !description.isEmpty {
            context.note(shown + ": " + ServerText.line(description, limit: 200))
        }
        while true {
            switch await context.parts.reader.readLine(prompt: context.parts.promptStyle.bold(shown) + " › ") {
            case .line(let line) where !line.allSatisfy(\.isWhitespace):
                return line
            case .line:
                context.note("(\(shown) is required; Ctrl-C gives up)")
            case .interrupted, .end:
                context.note("(nothing sent)")
                return nil
            case .signalled(let number):
                context.parts.control.requestExit(status: context.parts.control.exitStatus ?? 128 + number)
                return nil
            }
        }
    }

    /// The one question `messages` make, with `attached` after their text: the texts a blank line
    /// apart (each under its role when the assistant speaks in them), the images beside.
    static func question(_ messages: [ChatMessage], attached: Attachments) -> ChatMessage {
        let labelled = messages.contains { $0.role != .user }
        let texts = messages.compactMap { message -> String? in
            let text = message.content
            guard !text.isEmpty else { return nil }
            return labelled ? (message.role == .user ? "User: " : "Assistant: ") + text : text
        }
        var question = attached.message(with: texts.joined(separator: "\n\n"))
        question.images = messages.flatMap(\.images) + question.images
        return question
    }

    /// `SERVER.NAME` as its server (the longest of `servers` it starts with, then a dot) and the
    /// prompt's name; nil when it names no server.
    static func split(_ reference: String, servers: [String]) -> (server: String, name: String)? {
        if let server = servers.filter({ reference.hasPrefix($0 + ".") && reference.count > $0.count + 1 })
            .max(by: { $0.count < $1.count })
        {
            return (server, String(reference.dropFirst(server.count + 1)))
        }
        guard let dot = reference.firstIndex(of: "."), dot != reference.startIndex,
            reference.index(after: dot) != reference.endIndex
        else { return nil }
        return (String(reference[..<dot]), String(reference[reference.index(after: dot)...]))
    }

    /// `text` split into words at white space, a word in double or single quotes kept whole
    /// (`topic="the sea"`); nil when a quote is left open.
    static func words(_ text: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in text {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character.isWhitespace {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        guard quote == nil else { return nil }
        if inWord { words.append(word) }
        return words
    }
}
