import ChatSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The transfer threads that are running, so the process can end them before it exits: their
/// channels, so that ending them wakes a transfer waiting for its consumer, and a condition
/// signalled when the last one ends, so waiting for them is not a poll.
///
/// `@unchecked Sendable`: `channels` and the count are guarded by `lock`; `active` mirrors
/// the count for lock-free reads.
final class CurlTransferRegistry: @unchecked Sendable {
    let active = Atomic<Int>(0)
    let abortAll = Atomic<Bool>(false)
    /// An array, searched by identity: a few at a time, and a dictionary keyed by
    /// `ObjectIdentifier` made its metadata on every request's path (docs/PERFORMANCE.md, round 24).
    private var channels: [ResponseChannel] = []
    /// The lock; its condition is signalled when the last transfer ends.
    private let lock = ThreadCondition()

    /// A transfer's thread is about to start.
    func started(_ channel: ResponseChannel) {
        lock.lock()
        channels.append(channel)
        active.add(1, ordering: .releasing)
        lock.unlock()
        if abortAll.load(ordering: .relaxed) { channel.abort() }
    }

    /// A transfer's thread has ended (or could not start).
    func ended(_ channel: ResponseChannel) {
        lock.lock()
        if let index = channels.firstIndex(where: { $0 === channel }) { channels.remove(at: index) }
        if active.subtract(1, ordering: .releasing).newValue == 0 { lock.broadcast() }
        lock.unlock()
    }

    /// Stops every transfer, also one waiting for its consumer to make room.
    func abortEveryTransfer() {
        abortAll.store(true, ordering: .relaxed)
        lock.lock()
        let running = channels
        lock.unlock()
        for channel in running { channel.abort() }
    }

    /// Waits until no transfer runs, or `timeout` seconds pass.
    func waitUntilIdle(timeout: Double) {
        let deadline = MonotonicClock.deadline(after: timeout)
        lock.lock()
        while active.load(ordering: .acquiring) > 0 {
            if !lock.wait(until: deadline) { break }
        }
        lock.unlock()
    }
}
