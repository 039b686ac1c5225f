import ChatDomain
import ChatHistory
import ChatJSON
import ChatPresentation
import ChatSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `--list`, `--search`, `--show`, `--export` and `--delete`: the stored conversations.
struct HistoryMode {
    var store: SQLiteConversationStore
    var stdout: FileDescriptorSink
    var stderr: FileDescriptorSink
    var environment: [String: String]

    /// Opens the history and does what `options` asks of it. A completion script's listing
    /// (`--completion-values conversations`) never creates the history.
    static func run(_ options: CommandLineOptions, _ console: Console) async -> Int32 {
        guard let directory = DataDirectory(environment: console.environment) else {
            return console.fail("no data directory: set HOME or XDG_DATA_HOME", status: 2)
        }
        if case .completionValues = options.action, access(directory.file("history.sqlite"), F_OK) != 0 {
            return 0
        }
        let warnings = HistoryWarnings(notes: console.stderr, style: console.errorStyle)
        switch await SQLiteConversationStore.open(in: directory, report: warnings.report) {
        case .success(let store):
            let mode = HistoryMode(
                store: store, stdout: console.stdout, stderr: console.stderr, environment: console.environment)
            return await mode.run(options)
        case .failure(let error):
            return console.fail(ErrorWording.line(for: error), status: 1)
        }
    }

    func run(_ options: CommandLineOptions) async -> Int32 {
        let style = TerminalStyle(isTerminal: stdout.isTerminal, environment: environment)
        let presenter = HistoryPresenter(output: stdout, style: style)
        // A screenful on a terminal, everything for a program.
        let limit = options.listLimit.map { $0 == 0 ? nil : $0 } ?? (stdout.isTerminal ? 20 : nil)
        let format = options.exportFormat
        switch options.action {
        case .list:
            return show(
                await store.list(limit: limit, includingUnanswered: options.listAll), presenter, json: options.json,
                empty: "no stored conversations yet")
        case .search(let text):
            return show(
                await store.search(text, limit: limit, includingUnanswered: options.listAll), presenter,
                json: options.json, empty: "no conversation mentions \"\(text)\"")
        case .show(let id):
            return with(await store.load(id)) { presenter.show($0) }
        case .export(let id):
            return with(await store.load(id)) { conversation in
                switch format {
                case .markdown:
                    presenter.markdown(conversation)
                case .json:
                    if let bytes = try? JSONConversationArchive(home: environment["HOME"]).encode(conversation) {
                        stdout.write(String(decoding: bytes, as: UTF8.self))
                    }
                }
            }
        case .delete(let ids):
            return await delete(ids)
        case .stats:
            let since = WallClock.now() - Double(options.statsDays) * 86_400
            return with(await store.spending(since: since)) { rows in
                if options.json {
                    SpendingPresenter.json(rows, lines: JSONLines(stdout))
                } else {
                    SpendingPresenter(output: stdout, style: style).show(rows, days: options.statsDays)
                }
            }
        case .completionValues(.conversations):
            // The id, a tab and the title on one line (control characters become spaces).
            return with(await store.list(limit: 1000)) { list in
                stdout.write(
                    list.map { summary in
                        let title = String(
                            summary.title.map { $0.isWhitespace || ($0.asciiValue ?? 32) < 32 ? " " : $0 })
                        return summary.id + "\t" + title + "\n"
                    }.joined())
            }
        case .chat, .help, .version, .completions, .manPage, .completionValues(.profiles), .completionValues(.roles),
            .completionValues(.toolServers), .models, .listRoles, .toolsList, .toolsLogin, .toolsLogout, .localFallback,
            .reference:
            return 2
        }
    }

    private func show(
        _ result: Result<ConversationListing, StorageError>, _ presenter: HistoryPresenter, json: Bool,
        empty: String
    ) -> Int32 {
        with(result) { listing in
            if listing.summaries.isEmpty {
                stderr.write("chat: \(empty)\n")
            } else if json {
                JSONListingPresenter(lines: JSONLines(stdout))
                    .conversations(listing.summaries)
            } else {
                presenter.list(listing.summaries)
            }
            for line in ListingNotes.lines(for: listing, allFlag: "--all", limitFlag: "-n 0 shows all") {
                stderr.write("chat: \(line)\n")
            }
        }
    }

    /// Deletes every conversation of `ids`, once all are found; asks first on a terminal when
    /// there is more than one.
    private func delete(_ ids: [String]) async -> Int32 {
        var found: [Conversation] = []
        for id in ids {
            switch await store.load(id) {
            case .success(let conversation):
                if !found.contains(where: { $0.id == conversation.id }) { found.append(conversation) }
            case .failure(let error):
                return with(Result<Void, StorageError>.failure(error)) { _ in }
            }
        }
        if found.count > 1 && StandardInput.isTerminal && stderr.isTerminal {
            let names = found.map { "\($0.id ?? "") (\($0.title ?? "untitled"))" }.joined(separator: ", ")
            stderr.write("chat: delete \(found.count) conversations: \(names)? [y/N] ")
            let answer = (await StandardInput.line() ?? "").filter { !$0.isWhitespace }.lowercased()
            guard answer == "y" || answer == "yes" else {
                stderr.write("chat: nothing deleted\n")
                return 1
            }
        }
        for conversation in found {
            let status = with(await store.delete(conversation.id ?? "")) { summary in
                stderr.write("chat: deleted \(summary.id) (\(summary.title))\n")
            }
            if status != 0 { return status }
        }
        return 0
    }

    private func with<T>(_ result: Result<T, StorageError>, _ body: (T) -> Void) -> Int32 {
        switch result {
        case .success(let value):
            body(value)
            return 0
        case .failure(let error):
            stderr.write("chat: error: \(ErrorWording.line(for: error))\n")
            if case .database = error { return 1 }
            return 2
        }
    }
}
