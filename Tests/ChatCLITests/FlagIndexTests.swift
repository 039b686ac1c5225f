import ArgumentParser
import Foundation
import Testing

@testable import ChatData
@testable import chat

/// `FlagIndex`, the table that reads the common command line without ArgumentParser, held to the
/// declarations in `ChatArguments` and to ArgumentParser's own reading of the same lines.
@Suite struct FlagIndexTests {
    @Test func theTableListsEveryDeclarationInItsOrderAndKind() throws {
        let children = Mirror(reflecting: try ChatArguments.parse([])).children.filter { $0.label != "_prompt" }
        #expect(children.map { String($0.label?.dropFirst() ?? "") } == FlagIndex.entries.map(\.property))
        for (child, entry) in zip(children, FlagIndex.entries) {
            #expect(child.value is Option<String?> == (entry.takesValue && !entry.repeats), "\(entry.property)")
            #expect(child.value is Option<[String]> == entry.repeats, "\(entry.property)")
            #expect(child.value is Flag<Bool> == !entry.takesValue, "\(entry.property)")
        }
    }

    @Test func theTableHasTheNamesArgumentParserHas() throws {
        struct ToolInfo: Decodable {
            struct Command: Decodable { var arguments: [Argument] }
            struct Argument: Decodable {
                struct Name: Decodable {
                    var kind: String
                    var name: String
                }
                var kind: String
                var names: [Name]?
            }
            var command: Command
        }
        let info = try JSONDecoder().decode(ToolInfo.self, from: Data(ChatArguments._dumpHelp().utf8))
        let declared = info.command.arguments.filter { $0.kind != "positional" }.map { argument in
            let names = argument.names ?? []
            return [
                names.first { $0.kind == "long" }.map { "--" + $0.name } ?? "",
                names.first { $0.kind == "short" }.map { "-" + $0.name } ?? "",
                argument.kind,
            ]
        }
        let table = FlagIndex.entries.map { [$0.long, $0.short ?? "", $0.takesValue ? "option" : "flag"] }
        #expect(declared == table)
    }

    /// Command lines the table reads, and ones it leaves to ArgumentParser: either way, the same
    /// options or the same message.
    static let commandLines: [[String]] = [
        ["--version"], ["-h"], ["--help"], ["--base-url", "http://127.0.0.1:1/v1", "hi"],
        ["-m", "gpt", "-s", "be brief", "--temperature", "0.5", "what", "is", "-5", "squared"],
        ["--max-tokens=12", "--top-p", "0.9", "--no-stream", "--", "--help", "me"],
        ["--system=", "hi"], ["--system", "--model", "hi"], ["-m", "--", "x"], ["-m", "x", "--", "--model", "y"],
        ["--raw", "--no-history", "-v", "-i"], ["--raw", "--render", "always", "x"], ["--render=never", "x"],
        ["--code", "-i"], ["--code", "x"], ["-c", "more"], ["--continue", "--conversation", "ab", "x"],
        ["--conversation", ""], ["--profile", "local", "--config", "/tmp/c.json", "hi"], ["--list"],
        ["--search", "two words"], ["--show", "abc"], ["--export", "abc", "--format", "json"],
        ["--export", "abc", "--format", "yaml"], ["--delete", "abc"], ["--completions", "zsh"],
        ["--completions", "tcsh"], ["--temperature", "hot", "x"], ["--retries", "-1", "x"],
        ["--connect-timeout", "3", "--idle-timeout", "4", "--retries", "1", "x"],
        ["--ca-cert", "a.pem", "--client-cert", "b.pem", "--client-key", "c.pem", "--allow-insecure-http", "x"],
        ["-r", "code", "x"], ["--role=explain", "--", "x"], ["--list-roles"], ["--list-roles", "x"],
        ["-x", "find big files"], ["-x", "--history-append", "y"], ["--history-append", "y"], ["-x", "-i"],
        ["-x", "--code", "y"], ["-f", "a.txt", "x"], ["-f", "a.txt", "--file", "b.txt", "-f", "-", "x"],
        ["--file=a.txt", "x"], ["-f", "", "x"], ["-f", "-m", "x"], ["--models"], ["--models", "x"],
        ["--list", "--all", "-n", "5"], ["--list", "-n", "many"], ["--limit=0", "--list"], ["--list", "stray"],
        ["--search", "list", "comprehensions"], ["--delete", "a", "b", "c"], ["--show", "a", "b"],
        // Left to ArgumentParser: unknown, repeated, missing a value, attached, grouped, keys.
        ["--modle", "x", "hi"], ["-m", "a", "-m", "b", "x"], ["--raw", "--raw"], ["--model"], ["-mgpt", "x"],
        ["-m=gpt", "x"], ["-vi", "x"], ["--raw=yes", "x"], ["--api-key", "sk-x", "hi"], ["-k", "sk-x"],
        ["---", "hi"], ["--=x"], ["-m", "x", "-5", "squared"], ["-m", "x", "-", "y"], ["-m", "x", "", "y"],
        ["--generate-completion-script", "bash"], ["-m", "x", "--generate-completion-script"],
    ]

    @Test(arguments: commandLines)
    func theTableReadsALineAsArgumentParserDoes(_ arguments: [String]) {
        #expect(outcome(CommandLineParser(), arguments) == outcome(CommandLineParser(useIndex: false), arguments))
    }

    @Test func theCommonLinesAreReadByTheTable() {
        for line in [
            ["--version"], ["--base-url", "http://127.0.0.1:1/v1", "hi"], ["-m", "gpt", "-s", "x", "--raw", "hi"],
            ["-i"], ["--no-history", "--", "hi"], ["-f", "a", "-f", "b", "x"], ["-x", "-r", "shell", "y"],
        ] {
            #expect(FlagIndex.read(line) != nil, "\(line)")
        }
        for line in [["--modle", "x"], ["-m", "a", "-m", "b"], ["--model"], ["-vi"], ["--raw=1"], ["-m", "x", "-5"]] {
            #expect(FlagIndex.read(line) == nil, "\(line)")
        }
    }

    private enum Outcome: Equatable {
        case options(CommandLineOptions)
        case failure(String)
    }

    private func outcome(_ parser: CommandLineParser, _ arguments: [String]) -> Outcome {
        do throws(CLIError) {
            return .options(try parser.parse(arguments))
        } catch {
            return .failure(error.message)
        }
    }
}
