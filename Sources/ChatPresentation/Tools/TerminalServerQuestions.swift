import ChatDomain
import ChatJSON
import ChatRendering

/// `ServerQuestionAnswerer` for a person: a server's question (MCP elicitation) is shown on the
/// terminal, the server named and its words made safe. A form asks each field in turn (its title
/// and description, its type, the choices numbered, the default given first), then whether to
/// send the answers: `a` accepts, `d` declines, `c` cancels (Ctrl-C anywhere cancels too). A page
/// shows its full URL, its host in bold (and a warning when the host is punycode), and the
/// server's reason, and is opened in the browser only after a `y`; a `y` accepts (consent only:
/// the server checks what happened), `n` declines. With no terminal (or under `--json`), every
/// question is declined, and one line on stderr names the server and what it asked.
public actor TerminalServerQuestions: ServerQuestionAnswerer {
    private let terminal: (any ServerQuestionTerminal)?
    private let notes: any OutputSink
    private let notesStyle: TerminalStyle
    private let style: TerminalStyle

    /// Questions asked on `terminal` (none: declined, said on `notes`), in `questionStyle`.
    public init(
        terminal: (any ServerQuestionTerminal)?, notes: any OutputSink, notesStyle: TerminalStyle,
        questionStyle: TerminalStyle
    ) {
        self.terminal = terminal
        self.notes = notes
        self.notesStyle = notesStyle
        style = questionStyle
    }

    public func answer(_ question: ServerQuestion) async -> ServerAnswer {
        guard let terminal else {
            notes.write(notesStyle.warning("chat: warning: " + Self.declinedLine(question)) + "\n")
            return .decline
        }
        switch question.kind {
        case .form(let fields): return await form(question, fields, on: terminal)
        case .url(let url): return await page(question, url, on: terminal)
        }
    }

    /// The line said for a question declined for want of a terminal: the server, and what it
    /// asked (its words, the fields or the page), made safe.
    static func declinedLine(_ question: ServerQuestion) -> String {
        let server = "MCP server \"\(ServerText.line(question.server, limit: 60))\""
        let words = question.message.isEmpty ? "" : " \"\(ServerText.line(question.message, limit: 160))\""
        switch question.kind {
        case .form(let fields):
            let names = fields.map { ServerText.line($0.name, limit: 40) }.joined(separator: ", ")
            return "declined a question from \(server):\(words)" + (names.isEmpty ? "" : " (\(names))")
                + ": no terminal to answer on"
        case .url(let url):
            return "declined \(server)'s request to open \(ServerText.line(url, limit: 300)):\(words)"
                + ": no terminal to answer on"
        }
    }

    // MARK: A form

    private func form(
        _ question: ServerQuestion, _ fields: [ServerQuestionField], on terminal: any ServerQuestionTerminal
    )
        async -> ServerAnswer
    {
        await terminal.say(
            "\n" + style.bold("MCP server " + ServerText.line(question.server, limit: 60) + " asks:") + "\n"
                + Self.safe(question.message) + "\n")
        var content: [String: JSONValue] = [:]
        for field in fields {
            switch await ask(field, on: terminal) {
            case .stopped: return .cancel
            case .skipped: continue
            case .value(let value): content[field.name] = value
            }
        }
        let summary = content.keys.sorted().map { name in
            "  " + ServerText.line(name, limit: 60) + ": " + ServerText.line(content[name]?.jsonText ?? "", limit: 200)
        }
        let question =
            (summary.isEmpty ? "" : summary.joined(separator: "\n") + "\n")
            + "Send \(summary.isEmpty ? "this answer" : "these answers")? [a]ccept / [d]ecline / [c]ancel "
        switch await terminal.key(question, among: "adc") {
        case "a": return .accept(content)
        case "d": return .decline
        default: return .cancel
        }
    }

    /// What asking a field came to.
    private enum Asked {
        case value(JSONValue)
        /// An optional field left empty.
        case skipped
        /// The person stopped (Ctrl-C, Ctrl-D).
        case stopped
    }

    /// Asks `field` until its answer is one it takes.
    private func ask(_ field: ServerQuestionField, on terminal: any ServerQuestionTerminal) async -> Asked {
        var heading = "\n" + style.bold(ServerText.line(field.title ?? field.name, limit: 80))
        if let description = field.description, !description.isEmpty {
            heading += " " + style.dim(ServerText.line(description, limit: 300))
        }
        heading += " (" + Self.kindText(field.kind) + (field.isRequired ? ", required" : ", optional") + ")\n"
        if case .choice(let choices) = field.kind { heading += Self.numbered(choices) }
        if case .choices(let choices, _, _) = field.kind { heading += Self.numbered(choices) }
        await terminal.say(heading)
        while true {
            if case .boolean = field.kind {
                let shown = field.defaultValue?.bool.map { $0 ? " (default yes)" : " (default no)" } ?? ""
                switch await terminal.key("[y]es / [n]o\(shown) ", among: "yn") {
                case "y": return .value(.bool(true))
                case "n": return .value(.bool(false))
                default: return .stopped
                }
            }
            guard
                let typed = await terminal.line(
                    ServerText.line(field.name, limit: 40) + " › ", initial: Self.initial(field))
            else { return .stopped }
            let text = typed.trimmingCharacters()
            if text.isEmpty {
                if !field.isRequired { return .skipped }
                await terminal.say(style.warning("an answer is required") + "\n")
                continue
            }
            switch Self.value(text, for: field.kind) {
            case .success(let value): return .value(value)
            case .failure(let problem): await terminal.say(style.warning(problem.text) + "\n")
            }
        }
    }

    /// Why a typed answer does not fit its field.
    struct Problem: Error, Equatable {
        var text: String
    }

    /// `text` as the value of a field of `kind`, or why it is not one.
    static func value(_ text: String, for kind: ServerQuestionField.Kind) -> Result<JSONValue, Problem> {
        switch kind {
        case .text(let format, let minLength, let maxLength):
            if let minLength, text.count < minLength {
                return .failure(Problem(text: "at least \(minLength) characters"))
            }
            if let maxLength, text.count > maxLength {
                return .failure(Problem(text: "at most \(maxLength) characters"))
            }
            if let format, !fits(text, format: format) {
                return .failure(Problem(text: "not \(formatName(format))"))
            }
            return .success(.string(text))
        case .number(let integer, let minimum, let maximum):
            guard let number = Double(text), number.isFinite, !integer || number == number.rounded() else {
                return .failure(Problem(text: integer ? "a whole number, please" : "a number, please"))
            }
            if let minimum, number < minimum { return .failure(Problem(text: "at least \(plain(minimum))")) }
            if let maximum, number > maximum { return .failure(Problem(text: "at most \(plain(maximum))")) }
            return .success(.number(number))
        case .boolean:
            switch text.lowercased() {
            case "y", "yes", "true": return .success(.bool(true))
            case "n", "no", "false": return .success(.bool(false))
            default: return .failure(Problem(text: "yes or no, please"))
            }
        case .choice(let choices):
            guard let choice = pick(text, from: choices) else {
                return .failure(Problem(text: "one of the numbers above, please"))
            }
            return .success(.string(choice.value))
        case .choices(let choices, let minItems, let maxItems):
            var picked: [String] = []
            for item in text.split(separator: ",") {
                guard let choice = pick(item.trimmingCharacters(), from: choices) else {
                    return .failure(Problem(text: "numbers from the list, separated by commas, please"))
                }
                if !picked.contains(choice.value) { picked.append(choice.value) }
            }
            if let minItems, picked.count < minItems { return .failure(Problem(text: "at least \(minItems) of them")) }
            if let maxItems, picked.count > maxItems { return .failure(Problem(text: "at most \(maxItems) of them")) }
            return .success(.array(picked.map(JSONValue.string)))
        }
    }

    /// The choice `text` names: by its number in the list, or its value.
    private static func pick(_ text: String, from choices: [ServerQuestionChoice]) -> ServerQuestionChoice? {
        if let number = Int(text), (1...choices.count).contains(number) { return choices[number - 1] }
        return choices.first { $0.value == text }
    }

    /// Whether `text` is of JSON Schema `format` (as far as a person's typing is checked).
    private static func fits(_ text: String, format: String) -> Bool {
        switch format {
        case "email": return text.split(separator: "@").count == 2 && !text.contains(" ")
        case "uri": return text.contains(":") && !text.contains(" ")
        case "date": return text.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil
        case "date-time":
            return text.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?/) != nil
        default: return true
        }
    }

    private static func formatName(_ format: String) -> String {
        switch format {
        case "email": "an email address"
        case "uri": "a URI (scheme:…)"
        case "date": "a date (YYYY-MM-DD)"
        case "date-time": "a date and time (YYYY-MM-DDTHH:MM:SSZ)"
        default: format
        }
    }

    /// The kind of a field in words.
    static func kindText(_ kind: ServerQuestionField.Kind) -> String {
        switch kind {
        case .text(let format, _, _): format.map { "text, " + formatName(ServerText.line($0, limit: 20)) } ?? "text"
        case .number(let integer, let minimum, let maximum):
            (integer ? "a whole number" : "a number")
                + (minimum.map { " from \(plain($0))" } ?? "") + (maximum.map { " up to \(plain($0))" } ?? "")
        case .boolean: "yes or no"
        case .choice: "one of"
        case .choices: "any of, by number, separated by commas"
        }
    }

    /// The choices, numbered, a line each.
    private static func numbered(_ choices: [ServerQuestionChoice]) -> String {
        choices.enumerated().map { index, choice in
            let title = choice.title.map {
                ServerText.line($0, limit: 80) + " (" + ServerText.line(choice.value, limit: 60) + ")"
            }
            return "  \(index + 1)) " + (title ?? ServerText.line(choice.value, limit: 80)) + "\n"
        }.joined()
    }

    /// What the field's line starts with: its default.
    private static func initial(_ field: ServerQuestionField) -> String {
        guard let value = field.defaultValue else { return "" }
        switch (value, field.kind) {
        case (.string(let text), .choice(let choices)):
            return choices.firstIndex { $0.value == text }.map { String($0 + 1) } ?? ServerText.line(text, limit: 200)
        case (.array(let items), .choices(let choices, _, _)):
            return items.compactMap { item in choices.firstIndex { $0.value == item.string }.map { String($0 + 1) } }
                .joined(separator: ",")
        case (.string(let text), _): return ServerText.line(text, limit: 200)
        case (.number(let number), _): return plain(number)
        default: return ""
        }
    }

    /// `3`, not `3.0`; `2.5` as it is.
    static func plain(_ number: Double) -> String {
        number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }

    // MARK: A page

    private func page(_ question: ServerQuestion, _ url: String, on terminal: any ServerQuestionTerminal) async
        -> ServerAnswer
    {
        var text =
            "\n" + style.bold("MCP server " + ServerText.line(question.server, limit: 60) + " asks you to open a page:")
            + "\n"
        if !question.message.isEmpty { text += Self.safe(question.message) + "\n" }
        text += "  " + Self.highlighted(url, style: style) + "\n"
        if let host = Self.host(of: url),
            host.lowercased().split(separator: ".").contains(where: { $0.hasPrefix("xn--") })
        {
            text += style.warning("its address is in punycode: the name may imitate another") + "\n"
        }
        await terminal.say(text)
        switch await terminal.key("Open it in the browser? [y]es / [n]o ", among: "yn") {
        case "y":
            if let failure = await terminal.open(url) {
                await terminal.say(
                    style.warning("could not open the browser (\(failure)); open the address above yourself") + "\n")
            }
            return .accept([:])
        case "n": return .decline
        default: return .cancel
        }
    }

    /// `url` made safe, its host in bold.
    static func highlighted(_ url: String, style: TerminalStyle) -> String {
        let safe = ServerText.line(url, limit: 2000)
        guard let host = host(of: safe), let range = safe.firstRange(of: host) else { return safe }
        return String(safe[..<range.lowerBound]) + style.bold(host) + String(safe[range.upperBound...])
    }

    /// The host of `url` (`scheme://user@host:port/…`), if it has one.
    static func host(of url: String) -> String? {
        guard let start = url.firstRange(of: "://")?.upperBound else { return nil }
        let authority = url[start...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let afterUser = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        let host = afterUser.hasPrefix("[") ? afterUser.prefix { $0 != "]" } + "]" : afterUser.prefix { $0 != ":" }
        return host.isEmpty ? nil : String(host)
    }

    /// Text a server chose, made safe to show on several lines.
    static func safe(_ text: String) -> String {
        ControlSanitizer.safe(text)
    }
}
