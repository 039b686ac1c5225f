import ChatDomain
import ChatPresentation
import Testing

/// A completion source with fixed answers.
private struct FixedSource: CompletionSource {
    var models: [String] = ["gpt-4o", "gpt-4o-mini", "llama3.2"]
    var stored: [(id: String, title: String)] = [
        ("k3v9x2qa", "name three prime numbers"), ("9qa1b2c3", "A bread recipe"),
    ]
    var files: [String] = ["Sources/", "scripts/", "Sources/ChatData/", "Sources/ChatDomain/", "notes.txt"]

    func modelNames() -> [String] { models }
    func conversations() -> [(id: String, title: String)] { stored }
    func paths(completing prefix: String) -> [String] { files.filter { $0.hasPrefix(prefix) } }
}

@Suite("Tab completion")
struct CompletionTests {
    private let completer = REPLCompleter(source: FixedSource(), roles: ["code", "explain", "shell"])

    @Test func commandNamesWhileTheFirstWordIsTyped() {
        #expect(completer.completions(for: "/mo") == ["/model", "/models"])
        #expect(completer.completions(for: "hello") == [])
    }

    @Test func modelNamesAfterModel() {
        #expect(completer.completions(for: "/model ") == ["gpt-4o", "gpt-4o-mini", "llama3.2"])
        #expect(completer.completions(for: "/model gpt-4o-") == ["gpt-4o-mini"])
        #expect(completer.completions(for: "/model claude") == [])
        // /models takes no argument.
        #expect(completer.completions(for: "/models ") == [])
    }

    @Test func onOffAndServerNamesAfterTools() {
        let withTools = REPLCompleter(source: FixedSource(), toolServers: ["time", "git"])
        #expect(withTools.completions(for: "/tools ") == ["on", "off", "time", "git"])
        #expect(withTools.completions(for: "/tools t") == ["time"])
        #expect(withTools.completions(for: "/tools o") == ["on", "off"])
        #expect(completer.completions(for: "/tools t") == [])
    }

    @Test func theToolSwitchTurnsServersOnAndOff() {
        let tools = ToolSwitch(servers: ["time", "git"])
        #expect(tools.enabledServers == ["time", "git"])
        #expect(tools.toggle("git") == false)
        #expect(tools.enabledServers == ["time"])
        #expect(tools.toggle("web") == nil)
        tools.setAll(false)
        #expect(tools.enabledServers.isEmpty)
        #expect(tools.toggle("git") == true)
        #expect(tools.enabledServers == ["git"])
    }

    @Test func pathsAfterLoadAndSave() {
        #expect(completer.completions(for: "/load Sou") == ["Sources/", "Sources/ChatData/", "Sources/ChatDomain/"])
        #expect(completer.completions(for: "/save no") == ["notes.txt"])
    }

    @Test func conversationsAfterResumeByIdOrTitleWithTheTitleBeside() {
        #expect(
            completer.completions(for: "/resume ") == [
                "k3v9x2qa\tname three prime numbers", "9qa1b2c3\tA bread recipe",
            ])
        #expect(completer.completions(for: "/resume k3") == ["k3v9x2qa\tname three prime numbers"])
        #expect(completer.completions(for: "/resume BREAD") == ["9qa1b2c3\tA bread recipe"])
        #expect(completer.completions(for: "/resume zebra") == [])
    }

    @Test func roleNamesAfterRole() {
        #expect(completer.completions(for: "/role ") == ["code", "explain", "shell"])
        #expect(completer.completions(for: "/role ex") == ["explain"])
    }

    @Test func withoutASourceOnlyTheCommandsComplete() {
        #expect(REPL.completions(for: "/model ") == [])
        #expect(REPL.completions(for: "/resume ") == [])
    }
}
