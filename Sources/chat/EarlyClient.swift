import ChatHTTP
import Synchronization

/// The run's `CurlHTTPClient`, made on the main thread, which has nothing else to do, while the
/// run's task reads the settings: libcurl's one-time set-up (OpenSSL's, most of it) then costs
/// neither the task's time nor a thread of its own (docs/PERFORMANCE.md, round 21).
final class EarlyClient: Sendable {
    private struct State {
        var client: CurlHTTPClient?
        /// The task waiting for the client, if it asked before the client was made.
        var waiting: UnsafeContinuation<CurlHTTPClient, Never>?
    }

    private let state = Mutex(State())

    /// Makes the client and hands it to the task waiting for it, if any. Called once.
    func make() {
        let client = CurlHTTPClient()
        let waiting = state.withLock { state in
            state.client = client
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(returning: client)
    }

    /// The client, once `make` has made it. Asked once.
    func client() async -> CurlHTTPClient {
        if let client = state.withLock({ $0.client }) { return client }
        return await withUnsafeContinuation { continuation in
            let made = state.withLock { state -> CurlHTTPClient? in
                if state.client == nil { state.waiting = continuation }
                return state.client
            }
            if let made { continuation.resume(returning: made) }
        }
    }
}
