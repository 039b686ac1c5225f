import Synchronization

/// Counts the transfer threads that are running, so the process can end them before it exits.
final class CurlTransferRegistry: Sendable {
    let active = Atomic<Int>(0)
    let abortAll = Atomic<Bool>(false)
}
