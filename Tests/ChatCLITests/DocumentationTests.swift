import ChatTestSupport
import Foundation
import Testing

@testable import ChatSystem
@testable import chat

/// The documentation that the code declares is what the code says, and every link resolves:
/// `scripts/docs --check` with the built `chat` (a new option, config key, REPL command or exit
/// status without its documentation fails here), and the places the one product description and
/// the one exit-status table feed.
@Suite struct DocumentationTests {
    @Test func theGeneratedPartsAreCurrentAndEveryLinkResolves() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: repositoryScript("docs"))
        process.arguments = ["--check", "--binary", ChatBinary.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(said)")
    }

    @Test func oneDescriptionFeedsTheHelpTheManPageAndTheReadme() throws {
        let paragraph = ProductDescription.paragraph
        // --help: the overview names the summary, then says the paragraph (wrapped).
        let help = HelpText.text
        #expect(help.hasPrefix("OVERVIEW: chat \(ChatVersion.string): \(ProductDescription.summary)."))
        #expect(help.replacingOccurrences(of: "\n", with: " ").contains(paragraph))
        // The man page: NAME and DESCRIPTION.
        let page = ManualPage.text
        #expect(
            page.contains(".SH NAME\nchat \\- " + ProductDescription.summary.replacingOccurrences(of: "-", with: "\\-"))
        )
        // The README's first paragraph (scripts/docs writes it between its markers).
        let readme = try String(contentsOfFile: repositoryScript("../README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "<!-- scripts/docs writes from here: description -->\n"))
        let end = try #require(readme.range(of: "<!-- scripts/docs: end of description -->"))
        let first = readme[start.upperBound..<end.lowerBound]
        #expect(first.replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces) == paragraph)
        // It is the first: only the title comes before it.
        #expect(readme[..<start.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines) == "# chat")
        // Both providers and MCP tools are named.
        for name in ["OpenAI", "Anthropic", "MCP"] { #expect(paragraph.contains(name)) }
    }

    @Test func theExitStatusesAreOneTable() {
        let help = HelpText.text.replacingOccurrences(of: "\n", with: " ")
        let page = ManualPage.text
        for entry in ExitStatus.table {
            #expect(help.contains("\(entry.status) \(entry.brief)"))
            #expect(
                page.contains(".B \(entry.status)\n") || page.contains("\\fB\(entry.status)\\fR"), "\(entry.status)")
        }
    }
}
