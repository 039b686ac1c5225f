import ChatDomain
import ChatSystem
import Synchronization

/// `ModelRepository` over a remote and a local source: the server's model list (its
/// `GPTRepository`, which reads it in the provider's API, page by page) and the list kept in the
/// data directory. It answers from what this run fetched already, else from the kept list while
/// it is fresh (a day by default), else from the server, whose answer it keeps; callers never
/// know which. Without a local source (history off) it keeps the list in memory only.
public final class ModelListRepository: ModelRepository {
    private let remote: any GPTRepository
    private let cache: ModelListCache?
    private let server: String
    private let maxAge: Double
    private let now: @Sendable () -> Double
    /// What this run fetched or read already.
    private let known = Mutex<[ModelInfo]?>(nil)

    /// A repository for the server at `server` (its base URL, which keys the kept list), fetching
    /// through `remote`, keeping the list in `directory` (nil: nowhere) for `maxAge` seconds.
    public convenience init(
        server: String, remote: any GPTRepository, directory: DataDirectory?, maxAge: Double = 86_400
    ) {
        self.init(
            server: server, remote: remote, cache: directory.map(ModelListCache.init(directory:)), maxAge: maxAge,
            now: { WallClock.now() })
    }

    init(
        server: String, remote: any GPTRepository, cache: ModelListCache?, maxAge: Double,
        now: @escaping @Sendable () -> Double
    ) {
        self.server = server
        self.remote = remote
        self.cache = cache
        self.maxAge = maxAge
        self.now = now
    }

    public func models() async -> Result<[ModelInfo], ChatError> {
        if let models = known.withLock({ $0 }) { return .success(models) }
        let time = now()
        if let kept = cache?.read(server: server), time - kept.fetchedAt < maxAge, time >= kept.fetchedAt {
            known.withLock { $0 = kept.models }
            return .success(kept.models)
        }
        let fetched = await remote.listModels()
        if case .success(let models) = fetched {
            known.withLock { $0 = models }
            cache?.write(models, server: server, at: time)
        }
        return fetched
    }
}
