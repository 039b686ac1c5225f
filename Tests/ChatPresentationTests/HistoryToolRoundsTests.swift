import ChatDomain
import Testing

@testable import ChatPresentation

private func conversation(result: String, isError: Bool = false) -> Conversation {
    Conversation(
        settings: ChatSettings(model: "m"),
        messages: [
            ChatMessage(role: .user, content: "What time is it?"),
            ChatMessage(
                role: .assistant,
                parts: [
                    .text("Let me look."),
                    .toolCall(
                        ToolCall(id: "a", name: "time__get_current_time", arguments: .object(["zone": .string("UTC")]))),
                    .toolCall(ToolCall(id: "b", name: "bare", arguments: .string("{not json\u{1B}[2J"))),
                ]),
            ChatMessage(
                role: .tool,
                parts: [
                    .toolResult(ToolResult(callID: "a", content: [.text(result)], isError: isError)),
                    .toolResult(ToolResult(callID: "b", content: [.text("no")], isError: true)),
                ]),
            ChatMessage(role: .assistant, content: "It is noon."),
        ], id: "k3v9x2qa")
}

/// `--show` and `--export` with tool rounds: each call's server and tool, its arguments and its
/// result, made safe; `--show` cuts a long result, `--export` keeps it whole.
@Suite("Tool rounds in --show and --export")
struct HistoryToolRoundsTests {
    private func presenter(_ sink: CapturingSink) -> HistoryPresenter {
        HistoryPresenter(output: sink, style: TerminalStyle(isTerminal: false, environment: [:]))
    }

    @Test func showNamesTheServerAndToolWithArgumentsAndResults() {
        let sink = CapturingSink()
        presenter(sink).show(conversation(result: "12:00\n\u{1B}]0;pwned\u{07}UTC"))
        #expect(
            sink.text
                == """
                you:
                What time is it?

                assistant:
                Let me look.
                tool call: server time, tool get_current_time
                  arguments: {"zone":"UTC"}
                tool call: tool bare
                  arguments: {not json

                tool result: server time, tool get_current_time
                12:00
                ^[]0;pwned^GUTC

                tool result: tool bare (error)
                no

                assistant:
                It is noon.


                """)
    }

    @Test func showCutsALongResultAndExportKeepsItWhole() {
        let long = String(repeating: "x", count: 5_000)
        let shown = CapturingSink()
        presenter(shown).show(conversation(result: long, isError: true))
        #expect(shown.text.contains("tool result: server time, tool get_current_time (error)\n"))
        #expect(
            shown.text.contains(
                String(repeating: "x", count: HistoryPresenter.shownToolTextLimit)
                    + "… [3000 more characters; --export shows them all]\n"))
        #expect(!shown.text.contains(String(repeating: "x", count: HistoryPresenter.shownToolTextLimit + 1)))

        let exported = CapturingSink()
        presenter(exported).markdown(conversation(result: long + "\n```\n"))
        #expect(
            exported.text.contains(
                "Tool call: server time, tool get_current_time\n\n```json\n{\"zone\":\"UTC\"}\n```\n"))
        #expect(
            exported.text.contains(
                "## Tool result: server time, tool get_current_time\n\n````text\n\(long)\n```\n\n````\n"))
        #expect(exported.text.contains("## Tool result: tool bare (error)\n\n```text\nno\n```\n"))
        #expect(exported.text.contains("## Assistant\n\nIt is noon.\n"))
    }

    @Test func aToolNameSplitsAtItsFirstDoubleUnderscore() {
        #expect(ToolRoundText.split("time__get_current_time") == ("time", "get_current_time"))
        #expect(ToolRoundText.split("my_server__a__b") == ("my_server", "a__b"))
        #expect(ToolRoundText.split("plain") == (nil, "plain"))
        #expect(ToolRoundText.split("__lead") == (nil, "__lead"))
        #expect(ToolRoundText.split("trail__") == (nil, "trail__"))
    }
}
