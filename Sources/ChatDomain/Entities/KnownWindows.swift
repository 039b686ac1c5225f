import Synchronization

/// The context windows a run knows, first found first: the config's `max_context_tokens`,
/// chat's table of models, then the server's own figure (`GPTRepository.contextWindow(of:)`),
/// asked once a model in a run, and only of a conversation long enough to need it.
public final class KnownWindows: Sendable {
    /// chat's table.
    public let table: ContextWindows
    /// What servers said of a model's window (nil: nothing).
    private let asked = Mutex<[String: Int?]>([:])

    /// Windows from `table`, and the server's.
    public init(table: ContextWindows) {
        self.table = table
    }

    /// The window of the model `settings` name from the config or chat's table, if known.
    func known(for settings: ChatSettings) -> Int? {
        settings.maxContextTokens ?? table.tokens(of: settings.model)
    }

    /// The window of the model `settings` name as its server says it, asked once a run.
    func said(for settings: ChatSettings, by repository: any GPTRepository) async -> Int? {
        if let said = asked.withLock({ $0[settings.model] }) { return said }
        let said = await repository.contextWindow(of: settings.model)
        asked.withLock { $0[settings.model] = said }
        return said
    }
}
