import Synchronization

/// What the OpenAI provider learns about its server during a run and keeps for later requests.
final class OpenAIServerQuirks: Sendable {
    /// The server answered 400 to `stream_options`; leave it out from now on.
    let streamOptionsRejected = Atomic<Bool>(false)
}
