import CTerminal
import ChatData
import ChatDomain
import ChatPresentation
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The composition root: reads the command line and environment, wires Data into
/// Presentation, and turns the outcome into an exit status.
@main
enum ChatCommand {
    /// Quick answers (`--help`, `--version`, a usage error) are given here, on the main thread,
    /// before Swift's concurrency runtime starts its threads (measured: 0.3 ms of `chat --version`);
    /// everything else runs in a task.
    static func main() {
        // One malloc heap for all of chat's threads, not one per thread that allocates (glibc
        // makes up to eight per core; elsewhere this does nothing): 0.4–0.6 MiB less resident in a
        // long answer, and a one-shot about 2 % faster (fewer first-touch page faults); a
        // 20,000-event stream about 4 % slower from the shared lock (docs/PERFORMANCE.md, round 9).
        // Set before any other thread exists.
        cterm_use_one_heap()
        // A closed pipe must end a write with EPIPE, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        // Every file chat creates (history, input history, /save) is private to its owner.
        umask(0o077)
        let console = Console(environment: ProcessEnvironment.current())
        let options: CommandLineOptions
        do {
            options = try CommandLineParser().parse(Array(CommandLine.arguments.dropFirst()))
        } catch {
            exit(console.fail(error.message, status: 2))
        }
        switch options.action {
        case .help:
            console.stdout.write(CommandLineParser.help)
            exit(0)
        case .version:
            console.stdout.write("chat \(ChatDataVersion.string)\n")
            exit(0)
        case .completions(let shell):
            console.stdout.write(ShellCompletion.script(for: shell))
            exit(0)
        case .manPage:
            console.stdout.write(ManualPage.text)
            exit(0)
        default:
            Task.detached { exit(await run(options, console)) }
            // The main thread only waits, in sigsuspend with no signal blocked, so SIGINT, SIGTERM
            // and SIGHUP reach chat's handler here even when chat was started with them blocked
            // (the handler passes them on to a thread reading the terminal). That is where
            // `dispatchMain()` parks it on Linux too, but through pthread_exit, whose forced
            // unwind reads the binary's unwind tables (about 0.6 MiB of pages) in every run.
            // The work runs on the concurrency runtime's threads; nothing uses the main queue.
            var none = sigset_t()
            sigemptyset(&none)
            while true { sigsuspend(&none) }
        }
    }

    static func run(_ options: CommandLineOptions, _ console: Console) async -> Int32 {
        let (environment, stdout, stderr, errorStyle) =
            (console.environment, console.stdout, console.stderr, console.errorStyle)
        func fail(_ message: String, status: Int32) -> Int32 { console.fail(message, status: status) }

        switch options.action {
        case .completionValues(.profiles):
            do {
                let names = try SettingsResolver(environment: environment).profileNames(
                    configPath: options.overrides.configPath)
                stdout.write(names.map { $0 + "\n" }.joined())
                return 0
            } catch {
                return fail(error.description, status: 2)
            }
        case .listRoles, .completionValues(.roles):
            do {
                let roles = try SettingsResolver(environment: environment).roles(
                    configPath: options.overrides.configPath)
                if options.action == .listRoles {
                    let style = TerminalStyle(isTerminal: stdout.isTerminal, environment: environment)
                    RoleListPresenter(output: stdout, style: style).show(roles)
                } else {
                    stdout.write(roles.map { $0.name + "\t" + RoleListPresenter.description(of: $0) + "\n" }.joined())
                }
                return 0
            } catch {
                return fail(error.description, status: 2)
            }
        case .list, .search, .show, .export, .delete, .completionValues(.conversations):
            guard let directory = DataDirectory(environment: environment) else {
                return fail("no data directory: set HOME or XDG_DATA_HOME", status: 2)
            }
            // A Tab lists what is stored; it never creates the history.
            if case .completionValues = options.action, access(directory.file("history.sqlite"), F_OK) != 0 {
                return 0
            }
            let warnings = HistoryWarnings(notes: stderr, style: errorStyle)
            switch await SQLiteConversationStore.open(in: directory, report: warnings.report) {
            case .success(let store):
                return await HistoryMode(store: store, stdout: stdout, stderr: stderr, environment: environment)
                    .run(options)
            case .failure(let error):
                return fail(ErrorWording.line(for: error), status: 1)
            }
        case .chat, .help, .version, .completions, .manPage, .models:
            break
        }

        var settings: ResolvedSettings
        do {
            settings = try SettingsResolver(
                environment: environment,
                localModelCommand: Installation.localModelCommand(environment: environment)
            ).resolve(options.overrides)
        } catch {
            return fail(error.description, status: 2)
        }
        for warning in settings.warnings {
            stderr.write(errorStyle.warning("chat: warning: \(warning)") + "\n")
        }
        for note in settings.notes {
            stderr.write(errorStyle.note("chat: \(note)") + "\n")
        }

        if options.verbose {
            let style = errorStyle
            settings.server.diagnostics = { text in stderr.write(style.dim(text) + "\n") }
        }
        let client = CurlHTTPClient()
        defer { client.shutdown() }
        let repository = OpenAIGPTRepository(server: settings.server, client: client)
        // The server's models, kept in the data directory for a day (only in memory with history off).
        let modelList = ModelListRepository(
            server: settings.server.baseURL, remote: repository,
            directory: settings.history ? DataDirectory(environment: environment) : nil)
        if options.action == .models {
            return await ModelsMode(modelList: modelList, stdout: stdout, environment: environment, fail: fail)
                .run(current: settings.chat.model)
        }

        var store: SQLiteConversationStore?
        let warningStyle = errorStyle
        let warn: @Sendable (String) -> Void = { stderr.write(warningStyle.warning("chat: warning: \($0)") + "\n") }
        let historyWarnings = HistoryWarnings(notes: stderr, style: errorStyle)
        if settings.history {
            // Opened while the rest starts and the request goes out; the first use waits for it,
            // and hears (and reports) a failure.
            if let directory = DataDirectory(environment: environment) {
                store = SQLiteConversationStore.openInBackground(in: directory, report: historyWarnings.report)
            } else {
                warn("no data directory (set HOME); this conversation will not be stored")
            }
        }

        var session = Session(
            environment: environment, stdout: stdout, stderr: stderr, settings: settings,
            useCase: GPTChatUseCase(repository: repository, recorder: store, modelList: modelList),
            history: store, historyWarnings: historyWarnings)
        session.codeOnly = options.codeOnly
        if options.continueLast || options.conversationID != nil {
            guard let store else {
                return fail("cannot continue: history is off (--no-history or \"history\": false)", status: 2)
            }
            let found: Result<Conversation?, StorageError>
            if let id = options.conversationID {
                found = await store.load(id).map(Optional.some)
            } else {
                // The most recent conversation that has an answer: a failed one-shot is no thread.
                found = await store.mostRecentlyUsed(answeredOnly: true)
            }
            switch found {
            case .success(let conversation?):
                session.continuing = conversation
                if let line = UnavailableImages.note(for: conversation) {
                    stderr.write(errorStyle.note("chat: " + line) + "\n")
                }
            case .success(nil):
                stderr.write(
                    errorStyle.note("chat: no stored conversation with an answer yet; starting a new one") + "\n")
            case .failure(let error):
                return fail(ErrorWording.line(for: error), status: 2)
            }
        }

        // Every file is read before anything is sent; one that cannot go stops the run.
        let stdinAttached = options.files.contains("-")
        if !options.files.isEmpty {
            let reader = FileAttachmentReader(
                limit: settings.maxFileBytes, home: environment["HOME"],
                standardInput: { StandardInput.isTerminal ? nil : StandardInput.readBytes() })
            switch reader.read(options.files, adding: Attachments()) {
            case .success(let attachments): session.attachments = attachments
            case .failure(let error): return fail(ErrorWording.line(for: error), status: 2)
            }
        }

        let interactive =
            !options.execute && (options.interactive || (options.prompt == nil && StandardInput.isTerminal))
        if interactive {
            // (`-i --code` is a usage error already; this is the REPL that no prompt starts.)
            guard !options.codeOnly else {
                return fail("--code prints one answer's code; give a prompt: chat --code \"…\"", status: 2)
            }
            return await InteractiveMode(session: session).run(prompt: options.prompt)
        }
        let piped = StandardInput.isTerminal || stdinAttached ? nil : StandardInput.readAll()
        let input = [options.prompt, piped].compactMap { $0 }.joined(separator: "\n\n")
        guard !input.isEmpty || !session.attachments.isEmpty else {
            return fail(
                options.execute
                    ? "say what the command should do: chat -x \"find files over 100 MB\""
                    : "nothing to send: the piped input was empty; give a prompt (chat \"your question\")",
                status: 2)
        }
        // A role whose prompt holds {{input}} is the message, with the input in its place; the
        // files follow it.
        let message = session.attachments.message(with: settings.role?.message(for: input) ?? input)
        if options.execute {
            return await ShellMode(session: session, historyAppend: options.historyAppend).run(request: message)
        }
        return await OneShotMode(session: session).run(message: message)
    }
}
