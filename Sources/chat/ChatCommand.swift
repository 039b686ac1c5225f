import CTerminal
import ChatConfig
import ChatDomain
import ChatProviders
import ChatSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The composition root: reads the command line and environment, routes the run to its mode,
/// and turns the outcome into an exit status.
@main
enum ChatCommand {
    /// Quick answers (`--help`, `--version`, a usage error, the completion scripts, the man page,
    /// `scripts/chat`'s question) are given here, on the main thread, before Swift's concurrency
    /// runtime starts its threads (docs/PERFORMANCE.md, round 3); everything else runs in a task.
    static func main() {
        // One malloc heap for all of chat's threads, not one per thread that allocates (glibc
        // makes up to eight per core; elsewhere this does nothing; docs/PERFORMANCE.md, round 9).
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
        if let status = quickAnswer(options, console) { exit(status) }
        let early = EarlyClient()
        Task.detached {
            let status = await run(options, console, early)
            // Everything chat opened is closed or written by now (its output unbuffered; stdio,
            // which libedit uses, flushed here), so the process ends without running the
            // destructors of the libraries libcurl loads (GnuTLS, p11-kit, Kerberos, LDAP), none
            // of which chat needs to run (docs/PERFORMANCE.md, round 21).
            fflush(nil)
            _exit(status)
        }
        // The main thread's one piece of work: the client a run that talks to a server needs.
        if options.action.talksToServer { early.make() }
        // Then the main thread only waits, in sigsuspend with no signal blocked, so SIGINT, SIGTERM
        // and SIGHUP reach chat's handler here even when chat was started with them blocked
        // (the handler passes them on to a thread reading the terminal). That is where
        // `dispatchMain()` parks it on Linux too, but through pthread_exit, whose forced
        // unwind reads the binary's unwind tables (about 0.6 MiB of pages) in every run.
        // The work runs on the concurrency runtime's threads; nothing uses the main queue.
        var none = sigset_t()
        sigemptyset(&none)
        while true { sigsuspend(&none) }
    }

    /// The exit status of an action answered without the concurrency runtime; nil for the others.
    private static func quickAnswer(_ options: CommandLineOptions, _ console: Console) -> Int32? {
        switch options.action {
        case .help:
            console.stdout.write(HelpText.text)
        case .version:
            console.stdout.write("chat \(ChatVersion.string)\n")
        case .completions(let shell):
            console.stdout.write(ShellCompletion.script(for: shell))
        case .manPage:
            console.stdout.write(ManualPage.text)
        case .localFallback(let arguments):
            return LocalFallback(environment: console.environment).applies(to: arguments) ? 0 : 1
        case .reference(let kind):
            console.stdout.write(DocsReference.markdown(kind))
        default:
            return nil
        }
        return 0
    }

    /// Routes the run to the mode that does it; `early` makes the client of `--models` and a chat.
    static func run(_ options: CommandLineOptions, _ console: Console, _ early: EarlyClient) async -> Int32 {
        let configPath = options.overrides.configPath
        switch options.action {
        case .completionValues(.profiles):
            return ConfigListingMode(console: console).profiles(configPath: configPath)
        case .listRoles, .completionValues(.roles):
            return ConfigListingMode(console: console).roles(
                configPath: configPath, forCompletion: options.action != .listRoles, json: options.json)
        case .toolsList:
            return await ToolsListMode(options: options, console: console).run()
        case .toolsLogin(let server):
            return await ToolsLoginMode(options: options, console: console).login(server)
        case .toolsLogout(let server):
            return ToolsLoginMode(options: options, console: console).logout(server)
        case .completionValues(.toolServers):
            return ToolsListMode.serverNames(options, console)
        case .list, .search, .show, .export, .delete, .stats, .completionValues(.conversations):
            return await HistoryMode.run(options, console)
        case .models, .chat:
            return await withServer(options, console, early)
        case .help, .version, .completions, .manPage, .localFallback, .reference:
            return quickAnswer(options, console) ?? 0
        }
    }

    /// `--models` and a chat (`Action.talksToServer`): the settings, a client for the server,
    /// then the mode.
    private static func withServer(_ options: CommandLineOptions, _ console: Console, _ early: EarlyClient) async
        -> Int32
    {
        assert(options.action.talksToServer, "no client is made for \(options.action)")
        let builder = SessionBuilder(options: options, console: console)
        // The client is made on the main thread while the settings are read (`EarlyClient`), and
        // the history opens while that ends (docs/PERFORMANCE.md, round 21).
        let settings: ResolvedSettings
        do throws(RunFailure) {
            settings = try await builder.settings()
        } catch {
            return console.fail(error.message, status: error.status)
        }
        let history = options.action == .chat ? builder.history(settings) : nil
        let client = await early.client()
        defer { client.shutdown() }
        // The repository speaks the API of the provider the settings name (`server.provider`).
        let repository = ServerGPTRepository(server: settings.server, client: client)
        if options.action == .chat && ChatMode.isInteractive(options) {
            // The connection is made while the REPL starts and the person types.
            repository.preconnect()
        }
        let modelList = builder.modelList(settings, repository)
        if options.action == .models {
            return await ModelsMode(
                modelList: modelList, stdout: console.stdout, environment: console.environment, json: options.json
            ) {
                console.fail($0, status: $1)
            }.run(current: settings.chat.model)
        }
        do throws(RunFailure) {
            let fallback = try await builder.fallback(settings, client: client)
            let session = try await builder.session(
                settings, repository, modelList, history: history, fallback: fallback, client: client)
            let status = await ChatMode(
                session: session, options: options, console: console, connectAhead: repository.preconnect
            ).run()
            // Every way a chat ends (an answer, an error, Ctrl-C, SIGTERM, SIGHUP) comes here.
            await session.toolServers?.closeAtExit()
            return status
        } catch {
            return console.fail(error.message, status: error.status)
        }
    }
}
