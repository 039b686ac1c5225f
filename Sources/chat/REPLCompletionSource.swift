import ChatDomain
import ChatPresentation
import ChatSystem
import Dispatch
import Synchronization

/// What Tab offers from outside the REPL, for the line editor's thread, which may wait: the
/// server's models (asked for once a session, through the model list that keeps them a day),
/// the stored conversations, the files on disk. An answer that takes longer than a few seconds
/// is left for the next Tab.
final class REPLCompletionSource: CompletionSource {
    private let useCase: any ChatUseCase
    private let history: (any ConversationHistory)?
    private let home: String?
    /// The one request for the model names this session.
    private let modelNamesTask = Mutex<Task<[String], Never>?>(nil)
    /// How long a Tab waits.
    private let patience: Double

    /// The run's MCP servers, whose prompts Tab offers after `/prompt`.
    private let toolServers: (any ToolServerCatalogue)?

    init(
        useCase: any ChatUseCase, history: (any ConversationHistory)?, home: String?,
        toolServers: (any ToolServerCatalogue)? = nil, patience: Double = 4
    ) {
        self.toolServers = toolServers
        self.useCase = useCase
        self.history = history
        self.home = home
        self.patience = patience
    }

    func modelNames() -> [String] {
        let useCase = useCase
        let task = modelNamesTask.withLock { task in
            if let task { return task }
            let started = Task { ((try? await useCase.models().get()) ?? []).map(\.id) }
            task = started
            return started
        }
        return wait { await task.value } ?? []
    }

    func conversations() -> [(id: String, title: String)] {
        guard let history else { return [] }
        let listed = wait { () -> [ConversationSummary] in
            (try? await history.list(limit: 200, includingUnanswered: false).get().summaries) ?? []
        }
        return (listed ?? []).map { ($0.id, $0.title) }
    }

    /// The prompts of the servers that are on (asked for at each Tab: a server turned on since
    /// has its own), as `SERVER.NAME`.
    func toolPromptNames() -> [String] {
        guard let toolServers else { return [] }
        return (wait { await toolServers.prompts() } ?? []).map { $0.server + "." + $0.name }
    }

    func paths(completing prefix: String) -> [String] {
        PathCompletion.paths(completing: prefix, home: home)
    }

    /// `work`'s value, if it comes within `patience` seconds; it goes on either way.
    private func wait<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T? {
        let semaphore = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        Task {
            let value = await work()
            result.withLock { $0 = value }
            semaphore.signal()
        }
        guard semaphore.wait(timeout: .now() + patience) == .success else { return nil }
        return result.withLock { $0 }
    }
}
