import ChatAttachments
import ChatConfig
import ChatDomain
import ChatHTTP
import ChatHistory
import ChatPresentation
import ChatProviders
import ChatSystem
import Synchronization

/// Builds what a run that talks to the server needs, step by step: the settings (their warnings
/// and notes said), the model list, and the `Session` — the history, the conversation to continue
/// and the files attached. A step that cannot be done is a `RunFailure`.
struct SessionBuilder {
    let options: CommandLineOptions
    let console: Console

    /// The settings from the flags, the config and the environment; their warnings and notes are
    /// said on stderr, and `-v` sends the diagnostics there too.
    func settings() async throws(RunFailure) -> ResolvedSettings {
        let environment = console.environment
        var settings: ResolvedSettings
        do {
            settings = try await SettingsResolver(
                environment: environment,
                localModelCommand: Installation.localModelCommand(environment: environment)
            ).resolve(options.overrides)
        } catch {
            throw RunFailure(message: ErrorWording.line(for: error), status: 2)
        }
        let (stderr, style) = (console.stderr, console.errorStyle)
        for warning in settings.warnings {
            stderr.write(style.warning("chat: warning: \(ErrorWording.line(for: warning))") + "\n")
        }
        for note in settings.notes { stderr.write(style.note("chat: \(ErrorWording.line(for: note))") + "\n") }
        if let schema = options.schema {
            settings.chat.responseSchema = schema
            settings.given.responseSchema = schema
        }
        if options.verbose {
            settings.server.diagnostics = { text in stderr.write(style.dim(text) + "\n") }
        }
        return settings
    }

    /// The profiles `fallback` lists, each with a repository for its server (through `client`)
    /// and its settings, resolved now (their keys read) so that a profile that cannot be used is
    /// a config error at the start, not when it is needed; nil when the list is empty.
    func fallback(_ settings: ResolvedSettings, client: CurlHTTPClient) async throws(RunFailure) -> AnswerFallback? {
        guard !settings.fallback.isEmpty else { return nil }
        let environment = console.environment
        let resolver = SettingsResolver(
            environment: environment, localModelCommand: Installation.localModelCommand(environment: environment))
        var steps: [AnswerFallback.Step] = []
        // The profile in use is not asked again.
        for name in settings.fallback where name != settings.profile {
            var resolved: ResolvedSettings
            do {
                resolved = try await resolver.resolve(options.overrides, fallbackProfile: name)
            } catch {
                throw RunFailure(message: "fallback profile \(name): " + ErrorWording.line(for: error), status: 2)
            }
            resolved.server.diagnostics = settings.server.diagnostics
            steps.append(
                AnswerFallback.Step(
                    profile: name, repository: ServerGPTRepository(server: resolved.server, client: client),
                    settings: resolved.chat))
        }
        guard !steps.isEmpty else { return nil }
        return AnswerFallback(
            profile: settings.profile, steps: steps,
            namedModel: settings.given.model.isEmpty ? nil : settings.given.model)
    }

    /// The server's models, kept in the data directory for a day (only in memory with history off).
    func modelList(_ settings: ResolvedSettings, _ repository: ServerGPTRepository) -> ModelListRepository {
        ModelListRepository(
            server: settings.server.baseURL, remote: repository,
            directory: settings.history ? DataDirectory(environment: console.environment) : nil)
    }

    /// The session of a chat: the use case over `repository`, the history (`history(_:)`, opened
    /// while the rest starts), the conversation `-c` or `--conversation` continues, and the files
    /// `-f` attaches (a URL fetched with `client`).
    func session(
        _ settings: ResolvedSettings, _ repository: ServerGPTRepository, _ modelList: ModelListRepository,
        history: (store: SQLiteConversationStore?, warnings: HistoryWarnings)?, fallback: AnswerFallback? = nil,
        client: CurlHTTPClient
    ) async throws(RunFailure) -> Session {
        let (store, historyWarnings) = history ?? self.history(settings)
        let tools = toolLoop(settings)
        let costs = costs(settings)
        var session = Session(
            environment: console.environment, stdout: console.stdout, stderr: console.stderr, settings: settings,
            useCase: GPTChatUseCase(
                repository: repository, recorder: store, modelList: modelList, tools: tools?.loop, costs: costs,
                windows: KnownWindows(table: settings.windows), fallback: fallback),
            history: store, historyWarnings: historyWarnings)
        session.spending = costs.spending
        session.toolServers = tools?.servers
        session.tools = tools?.repl
        session.codeOnly = options.codeOnly
        session.json = options.json
        session.reasoning = settings.server.reasoning
        if options.continueLast || options.conversationID != nil {
            session.continuing = try await continuing(store)
        }
        let readers = AttachmentReaders(settings: settings, client: client, environment: console.environment)
        session.attachmentReader = readers.reader()
        session.attachments = try await attachments(readers)
        return session
    }

    /// What answers cost, by the settings' prices, and the run's budget (`max_cost`): when it is
    /// spent, a person at a terminal (standard input one) is asked whether to go on; a script
    /// or a piped REPL is not asked, and stops.
    func costs(_ settings: ResolvedSettings) -> RunCosts {
        let environment = console.environment
        let consent =
            StandardInput.isTerminal
            ? TTYToolConsentTerminal(environment: environment).map {
                TerminalBudgetConsent(terminal: $0, style: TerminalStyle(isTerminal: true, environment: environment))
            } : nil
        return RunCosts(prices: settings.prices, spending: RunSpending(limit: settings.maxCost), consent: consent)
    }

    /// The history, when it is on, and what says what it tells while the chat goes on. Opening
    /// starts at once, in the background; the first use waits for it, and hears (and reports) a
    /// failure.
    func history(_ settings: ResolvedSettings) -> (store: SQLiteConversationStore?, warnings: HistoryWarnings) {
        let warnings = HistoryWarnings(notes: console.stderr, style: console.errorStyle)
        return (openHistory(settings, warnings), warnings)
    }

    private func openHistory(_ settings: ResolvedSettings, _ warnings: HistoryWarnings) -> SQLiteConversationStore? {
        guard settings.history else { return nil }
        guard let directory = DataDirectory(environment: console.environment) else {
            let (stderr, style) = (console.stderr, console.errorStyle)
            stderr.write(
                style.warning("chat: warning: no data directory (set HOME); this conversation will not be stored")
                    + "\n")
            return nil
        }
        return SQLiteConversationStore.openInBackground(in: directory, report: warnings.report)
    }

    /// The stored conversation to continue: `--conversation ID`'s, or the most recently used one
    /// that has an answer (a failed one-shot is no thread); nil, said, when there is none yet.
    private func continuing(_ store: SQLiteConversationStore?) async throws(RunFailure) -> Conversation? {
        guard let store else {
            throw RunFailure(message: "cannot continue: history is off (--no-history or \"history\": false)", status: 2)
        }
        let found: Result<Conversation?, StorageError>
        if let id = options.conversationID {
            found = await store.load(id).map(Optional.some)
        } else {
            found = await store.mostRecentlyUsed(answeredOnly: true)
        }
        let (stderr, style) = (console.stderr, console.errorStyle)
        switch found {
        case .success(let conversation?):
            if let line = UnavailableImages.note(for: conversation) { stderr.write(style.note("chat: " + line) + "\n") }
            return conversation
        case .success(nil):
            stderr.write(style.note("chat: no stored conversation with an answer yet; starting a new one") + "\n")
            return nil
        case .failure(let error):
            throw RunFailure(message: ErrorWording.line(for: error), status: 2)
        }
    }

    /// The files `-f` attaches, every one read (a URL fetched) before anything is sent; one that
    /// cannot go stops the run. `-` is standard input, read once (a second `-` finds it at its end).
    private func attachments(_ readers: AttachmentReaders) async throws(RunFailure) -> Attachments {
        guard !options.files.isEmpty else { return Attachments() }
        let piped: [UInt8]? =
            options.files.contains("-") && !StandardInput.isTerminal ? await StandardInput.bytes() : nil
        let unread = Mutex(piped)
        let reader = readers.reader(standardInput: {
            unread.withLock { bytes in
                defer { if bytes != nil { bytes = [] } }
                return bytes
            }
        })
        switch await reader.read(options.files, adding: Attachments()) {
        case .success(let attachments): return attachments
        case .failure(let error):
            // A page that could not be fetched is a network failure, as a failed request is.
            let fetching = if case .web(let failure) = error { failure.isNetworkFailure } else { false }
            throw RunFailure(message: ErrorWording.line(for: error), status: fetching ? 1 : 2)
        }
    }
}
