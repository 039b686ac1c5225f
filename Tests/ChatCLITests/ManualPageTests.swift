import Foundation
import Testing

@testable import ChatPresentation
@testable import chat

/// `chat --man-page`: roff that man renders, with the options and REPL commands from their
/// declarations and the sections a man page has.
@Suite struct ManualPageTests {
    private static let sections = [
        "NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "REPL COMMANDS", "ENVIRONMENT", "FILES", "EXIT STATUS",
        "EXAMPLES", "SEE ALSO",
    ]

    @Test func theSectionsComeInTheirOrder() {
        let page = ManualPage.text
        #expect(page.hasPrefix(".TH CHAT 1 \"\" \"chat "))
        let titles = page.split(separator: "\n").filter { $0.hasPrefix(".SH ") }.map { String($0.dropFirst(4)) }
        #expect(titles == Self.sections)
    }

    @Test func everyOptionIsThereAsDeclaredAndNoHiddenOne() {
        let page = ManualPage.text
        let options = page[page.range(of: ".SH OPTIONS")!.upperBound..<page.range(of: ".SH REPL COMMANDS")!.lowerBound]
        // --help's option lines: "  -m, --model <NAME>   model to ask …".
        let names = HelpText.text.split(separator: "\n").filter { $0.hasPrefix("  -") }.flatMap { line in
            line.split(separator: "  ").first!.split(separator: " ").map { $0.trimmingCharacters(in: [","]) }
                .filter { $0.hasPrefix("-") }
        }
        #expect(names.count > 25)
        for name in names {
            #expect(options.contains("\\fB" + name.replacingOccurrences(of: "-", with: "\\-") + "\\fR"), "\(name)")
        }
        #expect(
            options.contains("\\fB\\-m\\fR, \\fB\\-\\-model\\fR \\fINAME\\fR\nmodel to ask (default gpt\\-4o\\-mini)\n")
        )
        #expect(options.contains("\\fB\\-\\-completions\\fR \\fISHELL\\fR\n"))
        #expect(!page.contains("man\\-page") && !page.contains("completion\\-values") && !page.contains("prompt\\fR"))
    }

    @Test func theREPLCommandsAreThoseOfHelp() {
        let page = ManualPage.text
        for command in SlashCommandRegistry.standard.commands {
            #expect(page.contains(".TP\n\\fB\(command.usage)\\fR\n"), "\(command.usage)")
        }
    }

    /// What `--help` says in short (its environment variables and exit statuses), the page says
    /// in full.
    @Test func theHelpsShortListsAreInThePage() {
        let page = ManualPage.text.replacingOccurrences(of: "\\-", with: "-")
        let help = HelpText.text
        for variable in ["OPENAI_API_KEY", "OPENAI_BASE_URL", "NO_COLOR", "XDG_CONFIG_HOME", "XDG_DATA_HOME"] {
            #expect(help.contains(variable))
            #expect(page.contains(".TP\n\\fB\(variable)"), "\(variable)")
        }
        for status in ["0", "1", "2", "129", "130", "143"] {
            #expect(help.contains("\(status) "))
            #expect(page.contains(".TP\n\\fB\(status)\\fR\n"), "\(status)")
        }
    }

    @Test func manRendersItWithoutWarnings() async throws {
        let chat = ChatBinary(environment: ["MANWIDTH": "80"])
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let page = try await chat.run(["--man-page"])
        #expect(page.status == 0)
        #expect(page.stdout == ManualPage.text)
        let path = chat.home + "/chat.1"
        try page.stdout.write(toFile: path, atomically: true, encoding: .utf8)

        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/man"), "needs man-db (scripts/deps --tests)")
        let rendered = try await chat.run(program: "/usr/bin/man", ["-l", path])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        #expect(rendered.stderr == "")
        let text = rendered.stdout
        #expect(text.hasPrefix("CHAT(1)"))
        for title in Self.sections { #expect(text.contains("\n\(title)\n"), "\(title)") }
        #expect(text.contains("       chat [options] PROMPT...\n"))
        #expect(text.contains("       -m, --model NAME\n"))
        #expect(text.contains("       130    Stopped by SIGINT (Ctrl-C)"))
        #expect(text.contains("           git diff | chat \"review this change\"\n"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 80 })

        // groff's own check: no warning of any kind.
        let checked = try await chat.run(program: "/usr/bin/groff", ["-man", "-ww", "-z", path])
        #expect(checked.status == 0)
        #expect(checked.stderr == "")
    }
}
