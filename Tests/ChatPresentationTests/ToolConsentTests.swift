import ChatDomain
import Synchronization
import Testing

@testable import ChatPresentation

/// A terminal whose keys and edits are scripted; it records what it was shown.
private final class ScriptedTerminal: ToolConsentTerminal, Sendable {
    private let state: Mutex<(keys: [Character?], edits: [String?], shown: [String])>

    init(keys: [Character?], edits: [String?] = []) {
        state = Mutex((keys, edits, []))
    }

    var shown: [String] { state.withLock { $0.shown } }

    func key(_ question: String, among keys: String) async -> Character? {
        state.withLock { state in
            state.shown.append(question)
            return state.keys.isEmpty ? nil : state.keys.removeFirst()
        }
    }

    func edit(_ text: String) async -> String? {
        state.withLock { state in
            state.shown.append("edit: " + text)
            return state.edits.isEmpty ? nil : state.edits.removeFirst()
        }
    }

    func say(_ text: String) async {
        state.withLock { $0.shown.append(text) }
    }
}

private let plain = TerminalStyle(isTerminal: false, environment: [:])

private func consent(_ terminal: ScriptedTerminal?, notes: CapturingSink = CapturingSink()) -> TerminalToolConsent {
    TerminalToolConsent(terminal: terminal, notes: notes, notesStyle: plain, questionStyle: plain)
}

private let tool = ToolDefinition(
    name: "time__convert_time", description: "", parameters: .object([:]),
    origin: ToolOrigin(server: "time", tool: "convert_time"))

private func call(_ zone: String = "UTC", name: String = "time__convert_time") -> ToolCall {
    ToolCall(id: "c1", name: name, arguments: .object(["timezone": .string(zone)]))
}

@Suite struct ToolConsentTests {
    @Test func theCallIsShownInFullMadeSafeAndYRunsIt() async {
        let terminal = ScriptedTerminal(keys: ["y"])
        #expect(await consent(terminal).decide(call("Asia/Tokyo\u{1B}]0;title\u{07}"), tool: tool) == .run)
        let question = terminal.shown.first ?? ""
        #expect(question.contains("Tool call: convert_time on MCP server time\n{\n  \"timezone\" : "))
        #expect(!question.contains("\u{1B}"))
        #expect(question.hasSuffix("Run it? [y]es / [n]o / [a]lways this tool for this run / [e]dit the arguments "))
    }

    @Test func nDeclinesAndAAlwaysRunsThatToolThisRun() async {
        #expect(await consent(ScriptedTerminal(keys: ["n"])).decide(call(), tool: tool) == .decline)
        let terminal = ScriptedTerminal(keys: ["a"])
        let asking = consent(terminal)
        #expect(await asking.decide(call(), tool: tool) == .run)
        #expect(await asking.decide(call("Europe/Paris"), tool: tool) == .run)
        #expect(terminal.shown.count == 1)
    }

    @Test func eEditsTheArgumentsAndWhatIsNotAnObjectIsAskedAgain() async {
        let terminal = ScriptedTerminal(keys: ["e", "e", "y"], edits: ["nonsense", #"{"timezone": "Asia/Tokyo"}"#])
        let decision = await consent(terminal).decide(call(), tool: tool)
        #expect(decision == .runEdited(.object(["timezone": .string("Asia/Tokyo")])))
        #expect(terminal.shown.contains("edit: nonsense"), "the invalid text is edited again")
        #expect(terminal.shown.contains { $0.contains("not a JSON object") })
        #expect(terminal.shown.last?.contains("\"Asia/Tokyo\"") == true)
    }

    @Test func ctrlCDeclinesAndCancelsTheTurn() async {
        let terminal = ScriptedTerminal(keys: [nil])
        let asking = consent(terminal)
        let task = Task { (await asking.decide(call(), tool: tool), Task.isCancelled) }
        let (decision, cancelled) = await task.value
        #expect(decision == .decline)
        #expect(cancelled)
    }

    @Test func approvedToolsAreNotAskedAbout() async {
        let terminal = ScriptedTerminal(keys: [])
        var approved = tool
        approved.isPreApproved = true
        #expect(await consent(terminal).decide(call(name: "time__get_current_time"), tool: approved) == .run)
        #expect(terminal.shown.isEmpty)
    }

    @Test func withNoTerminalTheCallIsDeclinedAndSaidOnce() async {
        let notes = CapturingSink()
        let asking = consent(nil, notes: notes)
        #expect(await asking.decide(call(), tool: tool) == .decline)
        #expect(await asking.decide(call("Europe/Paris"), tool: tool) == .decline)
        #expect(
            notes.text
                == "chat: warning: declined time.convert_time: no terminal to ask on; allow it with auto_approve in "
                + "its mcp_servers entry, or --yes-tools time.convert_time\n")
        #expect(await asking.continueAfter(rounds: 10) == false)
    }

    @Test func theGoOnQuestionTakesYOrN() async {
        let terminal = ScriptedTerminal(keys: ["y", "n"])
        let asking = consent(terminal)
        #expect(await asking.continueAfter(rounds: 1) == true)
        #expect(await asking.continueAfter(rounds: 1) == false)
        #expect(terminal.shown.first?.contains("after 1 round of tool calls") == true)
    }

    @Test func theToolsOfAServerSwitchedOffAreNotOffered() async {
        struct Source: ToolSource {
            func tools() async -> [ToolDefinition] {
                [("time", "now"), ("git", "status")].map {
                    ToolDefinition(
                        name: $0 + "__" + $1, description: "", parameters: .object([:]),
                        origin: ToolOrigin(server: $0, tool: $1))
                }
            }
            func call(_ call: ToolCall, tool: ToolDefinition) async -> ToolResult {
                ToolResult(callID: call.id, content: [], isError: false)
            }
        }
        let toolSwitch = ToolSwitch(servers: ["time", "git"])
        let reporter = ToolCallReporter(
            Source(), notes: CapturingSink(), style: plain, live: false, lines: nil, toolSwitch: toolSwitch)
        #expect(await reporter.tools().map(\.name) == ["time__now", "git__status"])
        _ = toolSwitch.toggle("time")
        #expect(await reporter.tools().map(\.name) == ["git__status"])
        toolSwitch.setAll(false)
        #expect(await reporter.tools().isEmpty)
    }

    @Test func theToolLineIsMadeSafe() async {
        struct Source: ToolSource {
            func tools() async -> [ToolDefinition] { [] }
            func call(_ call: ToolCall, tool: ToolDefinition) async -> ToolResult {
                ToolResult(callID: call.id, content: [.text("bad \u{1B}]52;c;aGk=\u{07}\u{1B}[2J news")], isError: true)
            }
        }
        let notes = CapturingSink()
        let reporter = ToolCallReporter(Source(), notes: notes, style: plain, live: false, lines: nil)
        let result = await reporter.call(call(), tool: tool)
        #expect(result.isError)
        #expect(
            notes.text.hasPrefix(#"⚙ time.convert_time {"timezone":"UTC"} · 0.0 s · error: bad news · "#),
            "\(notes.text)")
        #expect(!notes.text.contains("\u{1B}"))
        #expect(notes.writes.count == 1)
    }
}
