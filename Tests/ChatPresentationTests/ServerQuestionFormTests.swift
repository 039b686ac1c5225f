import ChatDomain
import Synchronization
import Testing

@testable import ChatPresentation

/// A terminal that answers from a script: each `key` question takes the next key (nil: Ctrl-C),
/// each `line` the next line; what is said, the lines' prompts and their starting text, and the
/// pages opened are kept.
private final class ScriptedQuestionTerminal: ServerQuestionTerminal {
    private struct State {
        var keys: [Character?]
        var lines: [String?]
        var said = ""
        var prompts: [String] = []
        var initials: [String] = []
        var opened: [String] = []
    }
    private let state: Mutex<State>

    init(keys: [Character?] = [], lines: [String?] = []) {
        state = Mutex(State(keys: keys, lines: lines))
    }

    var said: String { state.withLock { $0.said } }
    var initials: [String] { state.withLock { $0.initials } }
    var opened: [String] { state.withLock { $0.opened } }

    func key(_ question: String, among keys: String) async -> Character? {
        state.withLock { state in
            state.said += question
            return state.keys.isEmpty ? nil : state.keys.removeFirst()
        }
    }

    func line(_ prompt: String, initial: String) async -> String? {
        state.withLock { state in
            state.prompts.append(prompt)
            state.initials.append(initial)
            return state.lines.isEmpty ? nil : state.lines.removeFirst()
        }
    }

    func say(_ text: String) async {
        state.withLock { $0.said += text }
    }

    func open(_ url: String) async -> String? {
        state.withLock { $0.opened.append(url) }
        return nil
    }
}

/// `TerminalServerQuestions`: a server's form asked field by field (each kind, defaults, answers
/// that do not fit asked again), then accepted, declined or cancelled; a page opened only after a
/// yes; the server's words made safe; no terminal: declined in one line.
struct ServerQuestionFormTests {
    private let plain = TerminalStyle(isTerminal: false, environment: [:])

    private func answerer(_ terminal: ScriptedQuestionTerminal?, notes: CapturingSink = CapturingSink())
        -> TerminalServerQuestions
    {
        TerminalServerQuestions(terminal: terminal, notes: notes, notesStyle: plain, questionStyle: plain)
    }

    private let fields = [
        ServerQuestionField(
            name: "name", title: "Name", isRequired: true, kind: .text(format: nil, minLength: 2, maxLength: nil)),
        ServerQuestionField(
            name: "copies", description: "How many", isRequired: true,
            kind: .number(integer: true, minimum: 1, maximum: 5), defaultValue: .number(1)),
        ServerQuestionField(name: "price", kind: .number(integer: false, minimum: nil, maximum: nil)),
        ServerQuestionField(name: "gift", kind: .boolean, defaultValue: .bool(false)),
        ServerQuestionField(
            name: "colour", isRequired: true,
            kind: .choice([ServerQuestionChoice(value: "red", title: "Red"), ServerQuestionChoice(value: "blue")]),
            defaultValue: .string("blue")),
        ServerQuestionField(
            name: "extras",
            kind: .choices(
                [
                    ServerQuestionChoice(value: "wrap"), ServerQuestionChoice(value: "card"),
                    ServerQuestionChoice(value: "bag"),
                ],
                minItems: nil, maxItems: 2)),
    ]

    @Test func eachKindOfFieldIsAskedWithItsDefaultAndWhatDoesNotFitIsAskedAgain() async {
        let terminal = ScriptedQuestionTerminal(
            keys: ["y", "a"],
            lines: ["A", "Ada", "9", "two", "3", "", "7", "1", "1,3,2", "3,1"])
        let question = ServerQuestion(server: "shop", message: "Your order\u{1B}]0;pwned\u{07}", kind: .form(fields))
        let answer = await answerer(terminal).answer(question)
        #expect(
            answer
                == .accept([
                    "name": .string("Ada"), "copies": .number(3), "gift": .bool(true), "colour": .string("red"),
                    "extras": .array([.string("bag"), .string("wrap")]),
                ]))
        let said = terminal.said
        // The server's words shown as data: no escape sequence gets through.
        #expect(said.contains("MCP server shop asks:\nYour order"))
        #expect(!said.contains("\u{1B}]0;"))
        // Each field with its kind; the choices numbered; the defaults typed in already.
        #expect(said.contains("Name (text, required)"))
        #expect(said.contains("copies How many (a whole number from 1 up to 5, required)"))
        #expect(said.contains("gift (yes or no, optional)"))
        #expect(said.contains("[y]es / [n]o (default no)"))
        #expect(said.contains("  1) Red (red)\n  2) blue\n"))
        #expect(terminal.initials == ["", "", "1", "1", "1", "", "2", "2", "", ""])
        // Answers that do not fit are said, and asked again.
        #expect(said.contains("at least 2 characters"))
        #expect(said.contains("a whole number, please"))
        #expect(said.contains("at most 5"))
        #expect(said.contains("one of the numbers above, please"))
        #expect(said.contains("at most 2 of them"))
        #expect(said.contains("Send these answers? [a]ccept / [d]ecline / [c]ancel"))
    }

    @Test(arguments: [(Character?.some("d"), ServerAnswer.decline), (nil, .cancel)])
    func theAnswersAreDeclinedOrCancelled(key: Character?, expected: ServerAnswer) async {
        let terminal = ScriptedQuestionTerminal(keys: [key], lines: ["Ada"])
        let question = ServerQuestion(server: "shop", message: "Who?", kind: .form([fields[0]]))
        #expect(await answerer(terminal).answer(question) == expected)
    }

    @Test func ctrlCInAFieldCancels() async {
        let terminal = ScriptedQuestionTerminal(lines: [nil])
        let question = ServerQuestion(server: "shop", message: "Who?", kind: .form(fields))
        #expect(await answerer(terminal).answer(question) == .cancel)
    }

    @Test func aPageIsOpenedOnlyAfterAYes() async {
        let url = "https://xn--exmple-cua.test/connect?session=1"
        let yes = ScriptedQuestionTerminal(keys: ["y"])
        let page = ServerQuestion(server: "docs", message: "Sign in to go on.", kind: .url(url))
        #expect(await answerer(yes).answer(page) == .accept([:]))
        #expect(yes.opened == [url])
        #expect(yes.said.contains("MCP server docs asks you to open a page:\nSign in to go on.\n  " + url))
        #expect(yes.said.contains("punycode"))
        let no = ScriptedQuestionTerminal(keys: ["n"])
        #expect(await answerer(no).answer(page) == .decline)
        #expect(no.opened.isEmpty)
    }

    @Test func withNoTerminalEveryQuestionIsDeclinedInOneLine() async {
        let notes = CapturingSink()
        let form = ServerQuestion(server: "shop", message: "How many copies?", kind: .form([fields[1]]))
        #expect(await answerer(nil, notes: notes).answer(form) == .decline)
        let page = ServerQuestion(server: "docs", message: "Sign in.", kind: .url("https://example.test/a"))
        #expect(await answerer(nil, notes: notes).answer(page) == .decline)
        #expect(
            notes.writes == [
                "chat: warning: declined a question from MCP server \"shop\": \"How many copies?\" (copies): no terminal to answer on\n",
                "chat: warning: declined MCP server \"docs\"'s request to open https://example.test/a: \"Sign in.\": no terminal to answer on\n",
            ])
    }
}
