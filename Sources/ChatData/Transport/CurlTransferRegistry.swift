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
/// `@unchecked Sendable`: `channels` and the count are guarded by `mutex`; `active` mirrors
/// the count for lock-free reads.
final class CurlTransferRegistry: @unchecked Sendable {
    let active = Atomic<Int>(0)
    let abortAll = Atomic<Bool>(false)
    /// An array, searched by identity: a few at a time, and a dictionary keyed by
    /// `ObjectIdentifier` made its metadata on every request's path (docs/PERFORMANCE.md, round 24).
    private var channels: [ResponseChannel] = []
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Signalled when the last transfer ends.
    private let idle: UnsafeMutablePointer<pthread_cond_t>

    init() {
        mutex = .allocate(capacity: 1)
        pthread_mutex_init(mutex, nil)
        idle = .allocate(capacity: 1)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        #if canImport(Glibc)
            pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        #endif
        pthread_cond_init(idle, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(idle)
        idle.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// A transfer's thread is about to start.
    func started(_ channel: ResponseChannel) {
        pthread_mutex_lock(mutex)
        channels.append(channel)
        active.add(1, ordering: .releasing)
        pthread_mutex_unlock(mutex)
        if abortAll.load(ordering: .relaxed) { channel.abort() }
    }

    /// A transfer's thread has ended (or could not start).
    func ended(_ channel: ResponseChannel) {
        pthread_mutex_lock(mutex)
        if let index = channels.firstIndex(where: { $0 === channel }) { channels.remove(at: index) }
        if active.subtract(1, ordering: .releasing).newValue == 0 { pthread_cond_broadcast(idle) }
        pthread_mutex_unlock(mutex)
    }

    /// Stops every transfer, also one waiting for its consumer to make room.
    func abortEveryTransfer() {
        abortAll.store(true, ordering: .relaxed)
        pthread_mutex_lock(mutex)
        let running = channels
        pthread_mutex_unlock(mutex)
        for channel in running { channel.abort() }
    }

    /// Waits until no transfer runs, or `timeout` seconds pass.
    func waitUntilIdle(timeout: Double) {
        var deadline = MonotonicClock.deadline(after: timeout)
        pthread_mutex_lock(mutex)
        while active.load(ordering: .acquiring) > 0 {
            if pthread_cond_timedwait(idle, mutex, &deadline) == ETIMEDOUT { break }
        }
        pthread_mutex_unlock(mutex)
    }
}
