import Testing

@testable import ChatConfig
@testable import ChatDomain
@testable import ChatHistory
@testable import ChatJSON
@testable import ChatPresentation
@testable import ChatProviders
@testable import ChatTestSupport
@testable import chat

/// The command line's rules, in process: options first, then the prompt; unknown options and API
/// keys refused before it; every settings flag named after, and checked by, its settings-table row.
@Suite struct CommandLineParserTests {
    private func parse(_ arguments: [String]) throws(CLIError) -> CommandLineOptions {
        try CommandLineParser().parse(arguments)
    }

    /// The usage message parsing `arguments` fails with, or nil when it succeeds.
    private func failure(_ arguments: [String]) -> String? {
        do throws(CLIError) {
            _ = try parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func anUnknownOptionBeforeThePromptIsAnErrorWithASuggestion() {
        #expect(failure(["--modle", "x", "hi"]) == "unknown option --modle; did you mean --model?")
        #expect(failure(["--sytem", "x"]) == "unknown option --sytem; did you mean --system?")
        #expect(
            failure(["-m", "x", "--temprature=1", "hi"]) == "unknown option --temprature; did you mean --temperature?")
        #expect(failure(["--frobnicate", "hi"]) == "unknown option --frobnicate; see chat --help")
        #expect(failure(["-ic", "hi"]) == "unknown option -ic; see chat --help")
        #expect(failure(["---", "hi"]) == "unknown option ---; see chat --help")
    }

    @Test(arguments: [["--api-key", "sk-visible", "hi"], ["-k", "sk-visible"], ["--key=sk-visible", "hi"]])
    func anAPIKeyFlagIsRefusedWithoutShowingTheKey(_ arguments: [String]) throws {
        let message = try #require(failure(arguments))
        #expect(message.hasPrefix("an API key is never taken as a flag (ps would show it): set OPENAI_API_KEY"))
        #expect(!message.contains("sk-visible"))
    }

    @Test func aLeadingDoubleDashEndsTheOptionsAndIsNotPromptText() throws {
        let options = try parse(["-m", "x", "--", "--help", "me"])
        #expect(options.prompt == "--help me")
        #expect(options.action == .chat)
        #expect(try parse(["--"]).prompt == nil)
        #expect(try parse([]).prompt == nil)
    }

    @Test func fromTheFirstPromptWordOnEveryWordIsPromptText() throws {
        let options = try parse(["-m", "x", "what", "is", "-5", "squared", "--", "--model", "y", "--help", "-k"])
        #expect(options.prompt == "what is -5 squared -- --model y --help -k")
        #expect(options.action == .chat)
        #expect(try parse(["-5", "squared"]).prompt == "-5 squared")
        #expect(try parse(["-.5", "x"]).prompt == "-.5 x")
        #expect(try parse(["-", "x"]).prompt == "- x")
        #expect(try parse(["", "x"]).prompt == " x")
    }

    @Test func wordsArgumentParserWouldReadDifferentlyStayPromptText() throws {
        let words = ["what", "does", "---", "mean", "--=x", "-a.b", "--generate-completion-script", "bash"]
        #expect(try parse(words).prompt == words.joined(separator: " "))
        #expect(try parse(["hi", "--experimental-dump-help"]).prompt == "hi --experimental-dump-help")
        #expect(try parse(["\u{10FFFD}0\u{10FFFD}", "x"]).prompt == "\u{10FFFD}0\u{10FFFD} x")
    }

    @Test func aCommandLineWithoutOptionsReadsAsOneWithThem() throws {
        for words in [["hi"], ["-5", "x"], ["--", "-m", "x"], ["what", "is", "--", "---"], [], ["--"], ["-"]] {
            let alone = try parse(words)
            let withOption = try parse(["-v"] + words)
            #expect(alone.prompt == withOption.prompt, "\(words)")
            #expect(alone.overrides == withOption.overrides)
            #expect(withOption.verbose && !alone.verbose)
        }
        #expect(failure(["---x"]) == "unknown option ---x; see chat --help")
        #expect(failure(["-v", "---x"]) == "unknown option ---x; see chat --help")
    }

    @Test func anEmptyValueAfterAnEqualsSignIsEmptyAndTakesNoWord() throws {
        let options = try parse(["--system=", "what is 2+2", "and more"])
        #expect(options.overrides.values["system_prompt"] == .text(""))
        #expect(options.prompt == "what is 2+2 and more")
        #expect(failure(["--model=", "what is 2+2"]) == "--model needs a non-empty value")
    }

    @Test func anUnknownOptionIsNamedWithoutWhatFollowsIt() {
        #expect(failure(["-k=sk-secret123", "hi"])?.contains("sk-secret") == false)
        #expect(failure(["-ksk-secret123", "hi"])?.contains("never taken as a flag") == true)
        #expect(failure(["--key=sk-secret123", "hi"])?.contains("sk-secret") == false)
        #expect(failure(["--nope=sk-secret123", "hi"]) == "unknown option --nope; see chat --help")
    }

    @Test func anOptionTakesTheNextWordWhateverItIs() throws {
        let options = try parse(["-s", "--", "-m", "-x", "-v", "hi"])
        #expect(options.prompt == "hi")
        #expect(options.overrides.values["system_prompt"] == .text("--"))
        #expect(options.overrides.values["model"] == .text("-x"))
        #expect(options.verbose)
        #expect(try parse(["--search", "---"]).action == .search("---"))
        #expect(try parse(["--model=a=b", "--system=", "hi"]).overrides.values["model"] == .text("a=b"))
        // As before: the last of a repeated option wins, a repeated flag is no error.
        let repeated = try parse(["-m", "a", "--model", "b", "--no-stream", "--no-stream", "-v", "-v"])
        #expect(repeated.overrides.values["model"] == .text("b"))
        #expect(repeated.overrides.values["stream"] == .boolean(false))
    }

    @Test func usageErrorsAreOneLine() throws {
        #expect(failure(["--temperature", "3", "hi"]) == #"--temperature expects a number from 0 to 2, got "3""#)
        #expect(failure(["--top-p", "2"]) == #"--top-p expects a number from 0 to 1, got "2""#)
        #expect(failure(["--max-tokens", "many"]) == #"--max-tokens expects a whole number above 0, got "many""#)
        #expect(failure(["--retries", "21"]) == #"--retries expects a whole number from 0 to 20, got "21""#)
        #expect(
            failure(["--connect-timeout", "0"]) == #"--connect-timeout expects a number of seconds above 0, got "0""#)
        #expect(failure(["-m", ""]) == "--model needs a non-empty value")
        #expect(failure(["--profile", ""]) == "--profile needs a non-empty value")
        #expect(failure(["--format", "xml", "--export", "a"]) == #"--format expects markdown or json, got "xml""#)
        for arguments in [["-m"], ["--temperature"], ["--no-stream=1", "hi"], ["--list=x"]] {
            let message = try #require(failure(arguments))
            #expect(!message.contains("\n"))
            #expect(message.first?.isLowercase == true)
        }
    }

    @Test func flagsGiveTheirSettingsAndTheRest() throws {
        let options = try parse([
            "-m", "m", "-s", "be brief", "--temperature", "0.5", "--max-tokens", "42", "--top-p", "0.9",
            "--base-url", "http://h/v1",
            "--no-stream", "--connect-timeout", "1.5", "--idle-timeout", "2", "--retries", "0", "--allow-insecure-http",
            "--no-history", "--profile", "p", "--config", "c.json", "-v", "-i", "-c", "--conversation", "abc", "hi",
        ])
        #expect(
            options.overrides.values == [
                "model": .text("m"), "system_prompt": .text("be brief"), "temperature": .number(0.5),
                "max_tokens": .wholeNumber(42), "top_p": .number(0.9), "base_url": .text("http://h/v1"),
                "stream": .boolean(false),
                "connect_timeout": .number(1.5), "idle_timeout": .number(2), "retries": .wholeNumber(0),
                "allow_insecure_http": .boolean(true), "history": .boolean(false),
            ])
        #expect(options.overrides.profile == "p")
        #expect(options.overrides.configPath == "c.json")
        #expect(options.verbose && options.interactive && options.continueLast)
        #expect(options.conversationID == "abc")
        #expect(options.prompt == "hi")
        #expect(try parse(["hi"]).overrides == SettingOverrides())
    }

    @Test func actions() throws {
        #expect(try parse(["--help"]).action == .help)
        #expect(try parse(["-h", "--version"]).action == .help)
        #expect(try parse(["--version"]).action == .version)
        #expect(try parse(["--list"]).action == .list)
        #expect(try parse(["--search", "two words"]).action == .search("two words"))
        #expect(try parse(["--show", "abc"]).action == .show("abc"))
        let export = try parse(["--export", "abc", "--format", "json"])
        #expect(export.action == .export("abc"))
        #expect(export.exportFormat == .json)
        #expect(try parse(["--delete", "abc"]).action == .delete(["abc"]))
    }

    @Test func historyActionsTakeTheirWordsAndNoStrayOnes() throws {
        // The words after --search are the text searched for; after --delete, more ids.
        let search = try parse(["--search", "list", "comprehensions"])
        #expect(search.action == .search("list comprehensions"))
        #expect(search.prompt == nil)
        let delete = try parse(["--delete", "abc", "def", "ghi"])
        #expect(delete.action == .delete(["abc", "def", "ghi"]))
        #expect(delete.prompt == nil)
        // -n and --all.
        let list = try parse(["--all", "-n", "5", "--list"])
        #expect(list.action == .list)
        #expect(list.listLimit == 5 && list.listAll)
        #expect(try parse(["--list"]).listLimit == nil)
        #expect(try parse(["--limit", "0", "--list"]).listLimit == 0)
        #expect(failure(["-n", "many", "--list"]) == #"-n expects a whole number (0 for all), got "many""#)
        // A stray word after --list, --show ID or --export ID is a usage error.
        #expect(failure(["--list", "foo"]) == #"unexpected "foo" after --list"#)
        #expect(failure(["--show", "abc", "def"]) == #"unexpected "def" after --show ID"#)
        #expect(failure(["--export", "abc", "more", "words"]) == #"unexpected "more" after --export ID"#)
    }

    /// The settings that have a flag, with it.
    private var settingsFlags: [(setting: Setting, flag: CommandLineFlag)] {
        SettingsTable.all.compactMap { setting in setting.flag.map { (setting, $0) } }
    }

    @Test func everySettingsFlagSetsItsKey() throws {
        #expect(settingsFlags.count >= 16)
        for (setting, flag) in settingsFlags {
            let value: String
            switch setting.kind {
            case .choice(let words): value = words[0]
            case .wholeNumber(let minimum, _): value = String(max(minimum, 1))
            default: value = "1"
            }
            let options = try parse(flag.takesValue ? [flag.longName, value] : [flag.longName])
            #expect(options.overrides.values[setting.key] != nil, "\(flag.longName) does not set \(setting.key)")
            if let short = flag.shortName {
                let byShort = try parse(flag.takesValue ? [short, value] : [short])
                #expect(byShort.overrides == options.overrides, "\(short)")
            }
        }
    }

    @Test func aSettingsFlagsLongNameFollowsItsKey() {
        // -s, --system and --thinking (for thinking_budget): for brevity; --hide-reasoning (for
        // show_reasoning) says what it does where --no-show-reasoning would not read; --web (for
        // web_search) as the anchors name it.
        for (setting, flag) in settingsFlags
        where !["system_prompt", "thinking_budget", "show_reasoning", "web_search"].contains(setting.key) {
            let named = setting.key.split(separator: "_").joined(separator: "-")
            if case .boolean = setting.kind, setting.defaultValue == .boolean(true) {
                #expect(flag.long == "no-" + named, "\(setting.key)")
                #expect(!flag.takesValue)
            } else {
                #expect(flag.long == named, "\(setting.key)")
            }
        }
    }

    @Test func aSwitchSetsItsSettingAgainstItsDefault() throws {
        let options = try parse(["--no-stream", "--no-history", "--allow-insecure-http", "hi"])
        #expect(options.overrides.values["stream"] == .boolean(false))
        #expect(options.overrides.values["history"] == .boolean(false))
        #expect(options.overrides.values["allow_insecure_http"] == .boolean(true))
    }

    @Test func everyOptionHasNamesOfItsOwn() {
        let names = OptionCatalogue.entries.flatMap { [$0.flag.longName] + ($0.flag.shortName.map { [$0] } ?? []) }
        #expect(Set(names).count == names.count)
        for entry in OptionCatalogue.entries {
            #expect(entry.flag.long.allSatisfy { $0.isLowercase || $0 == "-" }, "\(entry.flag.long)")
            #expect(!CommandLineParser.isOption(entry.flag.long) && CommandLineParser.isOption(entry.flag.longName))
            if let short = entry.flag.shortName { #expect(CommandLineParser.isOption(short)) }
        }
        // The command's own options are not settings.
        for option in CommandOptionTable.all {
            #expect(SettingsTable.all.allSatisfy { $0.flag?.long != option.flag.long }, "\(option.flag.long)")
        }
    }

    @Test func theSuggestionIsTheNearestLongName() {
        #expect(OptionCatalogue.suggestion(for: "--no-strem") == "--no-stream")
        #expect(OptionCatalogue.suggestion(for: "--verison") == "--version")
        #expect(OptionCatalogue.suggestion(for: "--nope") == nil)
        #expect(OptionCatalogue.suggestion(for: "--list-role") == "--list-roles")
        #expect(failure(["--hel"]) == "unknown option --hel; did you mean --help?")
    }

    @Test func ofSeveralActionsTheFirstInItsOrderIsDoneAndOnlyItsValueChecked() throws {
        #expect(try parse(["--version", "-h"]).action == .help)
        #expect(try parse(["--list", "--models"]).action == .models)
        #expect(try parse(["--help", "--completions", "tcsh"]).action == .help)
        #expect(
            failure(["--list", "--completions", "tcsh"]) == "--completions expects bash, zsh or fish, got \"tcsh\"")
        // Settings are checked only for a run that uses them.
        #expect(try parse(["--list", "--temperature", "9"]).action == .list)
        #expect(failure(["--models", "--temperature", "9"]) == #"--temperature expects a number from 0 to 2, got "9""#)
    }

    @Test func theHelpIsGeneratedFromTheDeclarations() {
        let help = HelpText.text
        for line in [
            "USAGE: chat [options] PROMPT...", "Environment: OPENAI_API_KEY", "History: $XDG_DATA_HOME",
            "Exit status: 0",
        ] {
            #expect(help.contains(line))
        }
        for flag in ["--model", "--system", "--max-tokens", "--no-stream", "--no-history", "--profile", "--export"] {
            #expect(help.contains(flag))
        }
        #expect(help.hasSuffix("\n") && !help.hasSuffix("\n\n"))
    }
}
