import ChatTestSupport
import Foundation
import Testing

@testable import chat

/// `chat --completions bash|zsh|fish` and the hidden `--completion-values` the scripts run: the
/// scripts parse in their shells, offer every flag, the finite values, the config's profiles and
/// the stored conversations' ids; in bash, also through bash-completion in a real terminal.
@Suite struct ShellCompletionTests {
    private func failure(_ arguments: [String]) -> String? {
        do throws(CLIError) {
            _ = try CommandLineParser().parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func completionsTakesAShell() throws {
        for shell in ["bash", "zsh", "fish"] {
            #expect(
                try CommandLineParser().parse(["--completions", shell]).action
                    == .completions(try #require(ShellCompletion.Shell(rawValue: shell))))
        }
        #expect(failure(["--completions", "tcsh"]) == "--completions expects bash, zsh or fish, got \"tcsh\"")
        #expect(failure(["--completions"]) != nil)
    }

    @Test func theHiddenRequestsAreWholeCommandLinesOnly() throws {
        #expect(try CommandLineParser().parse(["--man-page"]).action == .manPage)
        #expect(
            try CommandLineParser().parse(["--completion-values", "profiles"]).action == .completionValues(.profiles))
        #expect(
            try CommandLineParser().parse(["--completion-values", "conversations"]).action
                == .completionValues(.conversations))
        #expect(
            failure(["--completion-values", "models"])
                == "--completion-values expects one of profiles, conversations, roles, tool-servers and nothing more")
        #expect(failure(["--man-page", "x"]) == "--man-page takes no other argument")
        // Not options: after another option they are unknown, and --help does not list them.
        #expect(failure(["-v", "--man-page"]) == "unknown option --man-page; see chat --help")
        #expect(!HelpText.text.contains("--man-page"))
        #expect(!HelpText.text.contains("--completion-values"))
        #expect(HelpText.text.contains("--completions <SHELL>"))
    }

    /// Every long option `--help` lists.
    private static var longOptions: [String] {
        HelpText.text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "," }).compactMap { word in
            word.hasPrefix("--") && word.count > 2 ? String(word) : nil
        }.filter { $0 != "--" }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func theScriptParsesAndOffersEveryFlagAndNoHelpSubcommand(_ shell: String) async throws {
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let result = try await chat.run(["--completions", shell])
        #expect(result.status == 0)
        #expect(result.stderr == "")
        let script = result.stdout
        #expect(script.hasSuffix("\n"))
        for option in Self.longOptions {
            #expect(script.contains(shell == "fish" ? "-l '\(option.dropFirst(2))'" : option), "\(option)")
        }
        // No `help` subcommand (ArgumentParser's scripts had one): `chat help` would ask the model.
        #expect(!script.contains("Show subcommand help information"))
        #expect(!script.contains("_chat_help"))
        #expect(!script.contains("--man-page"))
        // The finite values, and the machine's profiles and conversations asked of chat.
        #expect(script.contains("markdown") && script.contains("json"))
        #expect(script.contains("--completion-values profiles"))
        #expect(script.contains("--completion-values conversations"))

        let path = chat.home + "/completion." + shell
        try script.write(toFile: path, atomically: true, encoding: .utf8)
        let check: [String]
        switch shell {
        case "bash": check = ["/bin/bash", "-n", path]
        case "zsh": check = ["/usr/bin/zsh", "-n", path]
        default: check = ["/usr/bin/fish", "--no-execute", path]
        }
        try #require(FileManager.default.isExecutableFile(atPath: check[0]), "\(check[0]) (scripts/deps --tests)")
        let parsed = try await chat.run(program: check[0], Array(check.dropFirst()))
        #expect(parsed.status == 0, "\(parsed.stderr)")
    }

    /// A chat with a config of two profiles and two stored conversations; their ids, most
    /// recently used first.
    private func chatWithProfilesAndConversations() async throws -> (ChatBinary, [String]) {
        let chat = ChatBinary()
        try FileManager.default.createDirectory(atPath: chat.home + "/config/chat", withIntermediateDirectories: true)
        _ = try chat.writeConfig(
            #"{"profiles": {"work": {"model": "m"}, "groq": {"base_url": "https://api.groq.com/openai/v1"}}}"#,
            name: "config/chat/config.json")
        let server = try LoopbackServer { _, _ in ServerStep.sse([ServerStep.chatChunk("ok")]) }
        defer { server.stop() }
        _ = try await chat.run(["--base-url", server.baseURL, "name three primes"])
        _ = try await chat.run(["--base-url", server.baseURL, "a\ttab and\u{1b} escape"])
        let ids = try await chat.listed().map { String($0.prefix(8)) }
        try #require(ids.count == 2)
        return (chat, ids)
    }

    @Test func completionValuesListsProfilesAndConversations() async throws {
        let (chat, ids) = try await chatWithProfilesAndConversations()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let profiles = try await chat.run(["--completion-values", "profiles"])
        #expect(profiles.status == 0)
        #expect(profiles.stdout == "anthropic\ngroq\nlocal\nwork\n")
        let conversations = try await chat.run(["--completion-values", "conversations"])
        #expect(conversations.status == 0)
        #expect(conversations.stdout == "\(ids[0])\ta tab and  escape\n\(ids[1])\tname three primes\n")
    }

    @Test func completionValuesCreatesNoHistoryAndReportsABadConfig() async throws {
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let none = try await chat.run(["--completion-values", "conversations"])
        #expect(none.status == 0)
        #expect(none.stdout == "" && none.stderr == "")
        #expect(!FileManager.default.fileExists(atPath: chat.home + "/data"))
        #expect(try await chat.run(["--completion-values", "profiles"]).stdout == "anthropic\nlocal\n")

        try FileManager.default.createDirectory(atPath: chat.home + "/config/chat", withIntermediateDirectories: true)
        _ = try chat.writeConfig("{", name: "config/chat/config.json")
        let bad = try await chat.run(["--completion-values", "profiles"])
        #expect(bad.status == 2)
        #expect(bad.stdout == "")
        #expect(bad.stderr.hasPrefix("chat: error: config \(chat.home)/config/chat/config.json: "))
        #expect(bad.stderr.split(separator: "\n").count == 1)
    }

    /// What bash's completion function offers for `line` (the text before the cursor), called the
    /// way bash calls it.
    private func bashCompletions(_ chat: ChatBinary, _ line: String) async throws -> [String] {
        let script = chat.home + "/completion.bash"
        if !FileManager.default.fileExists(atPath: script) {
            try await chat.run(["--completions", "bash"]).stdout.write(
                toFile: script, atomically: true, encoding: .utf8)
        }
        let driver = """
            source "$1"
            COMP_LINE="$2" COMP_POINT=${#2}
            read -ra COMP_WORDS <<<"$COMP_LINE"
            [[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
            COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
            _chat chat "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let result = try await chat.run(program: "/bin/bash", ["-c", driver, "driver", script, line])
        #expect(result.stderr == "")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesFlagsValuesProfilesAndIds() async throws {
        let (chat, ids) = try await chatWithProfilesAndConversations()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let me = ChatBinary.path
        #expect(
            try await bashCompletions(chat, "\(me) --no-").sorted() == ["--no-history", "--no-stream", "--no-tools"])
        #expect(try await bashCompletions(chat, "\(me) --prof") == ["--profile"])
        #expect(try await bashCompletions(chat, "\(me) --profile ").sorted() == ["anthropic", "groq", "local", "work"])
        #expect(try await bashCompletions(chat, "\(me) -m x --profile w") == ["work"])
        #expect(try await bashCompletions(chat, "\(me) --format ").sorted() == ["json", "markdown"])
        #expect(try await bashCompletions(chat, "\(me) --completions z") == ["zsh"])
        for option in ["--conversation", "--show", "--export", "--delete"] {
            #expect(try await bashCompletions(chat, "\(me) \(option) ").sorted() == ids.sorted(), "\(option)")
        }
        #expect(try await bashCompletions(chat, "\(me) --show \(ids[1].prefix(5))") == [ids[1]])
        // No subcommand: a first word is prompt text, nothing to complete.
        #expect(try await bashCompletions(chat, "\(me) ") == [])
    }

    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/fish"), "needs fish (scripts/deps --tests)")
    )
    func fishCompletesProfilesAndIdsWithTheirTitles() async throws {
        var (chat, ids) = try await chatWithProfilesAndConversations()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let script = chat.home + "/chat.fish"
        try await chat.run(["--completions", "fish"]).stdout.write(toFile: script, atomically: true, encoding: .utf8)
        // The script completes the command `chat`: the built one, on PATH.
        chat.environment["PATH"] =
            URL(fileURLWithPath: ChatBinary.path).deletingLastPathComponent().path + ":/usr/bin:/bin"
        let result = try await chat.run(
            program: "/usr/bin/fish",
            ["--no-config", "-c", "source \(script); complete -C 'chat --profile '; complete -C 'chat --show '"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines.map { String($0.prefix { $0 != "\t" }) } == ["anthropic", "groq", "local", "work", ids[0], ids[1]])
        #expect(lines.last == "\(ids[1])\tname three primes")
    }

    /// The installed bash completion, as a person meets it: an interactive bash with Debian's
    /// bash-completion, which loads it on the first Tab, under tmux.
    @Test(
        .enabled(
            if: TmuxSession.isAvailable
                && FileManager.default.fileExists(atPath: "/usr/share/bash-completion/bash_completion"),
            "needs tmux and bash-completion (scripts/deps --tests)"))
    func tabInAnInteractiveBashCompletesFlagsAndProfiles() async throws {
        let (chat, ids) = try await chatWithProfilesAndConversations()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let prefix = chat.home + "/prefix"
        let installed = try await chat.run(
            program: InstallTests.script, ["--prefix", prefix, "--binary", ChatBinary.path])
        try #require(installed.status == 0, "\(installed.stderr)")

        // As the install advises for a prefix bash does not look in by itself.
        let environment = chat.environment.merging([
            "PATH": prefix + "/bin:/usr/bin:/bin", "XDG_DATA_DIRS": prefix + "/share:/usr/share", "TERM": "xterm",
            "PS1": "$ ",
        ]) { $1 }
        let session = try TmuxSession(
            program: "/bin/bash", arguments: ["--noprofile", "--norc", "-i"], environment: environment)
        defer { session.kill() }
        // (tmux shows a line without its trailing spaces.)
        #expect(await session.waitForScreen { $0.contains("$") })
        try session.type(". /usr/share/bash-completion/bash_completion; clear")
        try session.send("Enter")
        #expect(await session.waitForScreen { !$0.contains("bash_completion") && $0.contains("$") })

        try session.type("chat --prof")
        try session.send("Tab")
        #expect(await session.waitForScreen { $0.contains("$ chat --profile") }, "\(session.screen())")
        try session.send("Tab", "Tab")
        #expect(
            await session.waitForScreen { screen in ["groq", "local", "work"].allSatisfy(screen.contains) },
            "\(session.screen())")
        try session.type("w")
        try session.send("Tab")
        #expect(await session.waitForScreen { $0.contains("$ chat --profile work") }, "\(session.screen())")

        try session.send("C-u")
        try session.type("chat --show \(ids[1].prefix(5))")
        try session.send("Tab")
        #expect(await session.waitForScreen { $0.contains("$ chat --show \(ids[1])") }, "\(session.screen())")
    }
}
