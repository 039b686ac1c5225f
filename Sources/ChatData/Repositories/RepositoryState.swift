import Synchronization

/// What the repository learns about its server during a run and keeps for later requests.
final class RepositoryState: Sendable {
    /// The server answered 400 to `stream_options`; leave it out from now on.
    let streamOptionsRejected = Atomic<Bool>(false)
}
