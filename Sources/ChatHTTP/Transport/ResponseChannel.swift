import ChatSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What one transfer hands its consumer: the head, then the body bytes, then how it ended.
///
/// Bytes are appended to one buffer as libcurl delivers them (a write per HTTP chunk: a server
/// that sends each event as its own chunk makes one per event), and the consumer takes all of
/// them in one go, so a burst costs one wake-up of the consumer, not one per chunk. The buffer
/// is bounded by bytes (`limit`): when it is full the transfer's thread waits on a condition
/// until the consumer has taken them, with no polling, so a fast server cannot fill the memory.
///
/// `@unchecked Sendable`: every field is guarded by `lock` except the atomic `stopped` and
/// the counters read by tests; the producer is the transfer's own thread, the consumer one task
/// at a time (an iterator's `next` is never called concurrently).
final class ResponseChannel: @unchecked Sendable {
    /// How one call of `next` ends.
    enum Step {
        case part(HTTPStreamPart)
        /// The body is over; throws the transfer's error, if any.
        case end((any Error)?)
    }

    /// At most this many body bytes wait for the consumer, plus the one write that crossed the
    /// line (libcurl writes at most 16 KiB at a time).
    static let defaultLimit = 256 * 1024

    /// A consumer that has waited this long is woken on the delivering thread (through
    /// `ConsumerExecutor.runHere`, which runs it there if it prefers a `ConsumerExecutor`): a
    /// burst's writes come microseconds apart, a model's tokens milliseconds.
    static let quietNanoseconds: UInt64 = 1_000_000

    /// How long a transfer may go on taking the rest of a body its consumer stopped reading
    /// because it had all it wanted (`stopReading`), before it is stopped.
    static let drainNanoseconds: UInt64 = 1_000_000_000

    let limit: Int
    /// When the consumer stopped reading because it had all it wanted (`MonotonicClock`; 0 if
    /// it did not).
    let drainingSince = Atomic<UInt64>(0)
    /// The consumer is gone (cancelled, or it dropped the stream), or the process is ending:
    /// the transfer stops at its next callback. Read without the lock by libcurl's callbacks.
    let stopped = Atomic<Bool>(false)

    /// The lock; its condition is signalled when the consumer has taken the bytes, or the
    /// transfer is to stop.
    private let lock = ThreadCondition()

    // Guarded by `lock`.
    private var head: HTTPResponseHead?
    private var body: [UInt8] = []
    private var ended = false
    private var failure: (any Error)?
    /// The consumer gave up: `next` says the body is over, with no error.
    private var consumerGone = false
    private var producerWaiting = false
    private var waitingConsumer: UnsafeContinuation<Void, Never>?
    /// When the consumer began to wait (`MonotonicClock`).
    private var waitingSince: UInt64 = 0
    /// The most bytes that waited at once, how many times the consumer took bytes and the
    /// transfer waited for it, and how many deliveries woke it after a pause (for tests).
    private var stats = Stats()

    struct Stats: Equatable {
        var peakBuffered = 0
        var takes = 0
        var writes = 0
        var producerWaits = 0
        /// Deliveries that woke a consumer that had waited `quietNanoseconds` or more (through
        /// `ConsumerExecutor.runHere`: it runs there if it prefers a `ConsumerExecutor`).
        var quietWakes = 0
    }

    init(limit: Int = ResponseChannel.defaultLimit) {
        self.limit = max(limit, 1)
    }

    var counters: Stats {
        lock.lock()
        defer { lock.unlock() }
        return stats
    }

    // MARK: The transfer's side

    /// Hands over the response's head.
    func send(head value: HTTPResponseHead) {
        lock.lock()
        head = value
        let consumer = takeWaitingConsumer()
        lock.unlock()
        consumer?.resume()
    }

    /// Appends body bytes, first waiting while the buffer is full (the consumer is behind).
    /// False when the transfer is to stop instead.
    func send(body bytes: UnsafeRawBufferPointer) -> Bool {
        lock.lock()
        while body.count >= limit && !stopped.load(ordering: .relaxed) {
            producerWaiting = true
            stats.producerWaits += 1
            lock.wait()
        }
        producerWaiting = false
        guard !stopped.load(ordering: .relaxed) else {
            lock.unlock()
            return false
        }
        body.append(contentsOf: bytes)
        stats.writes += 1
        if body.count > stats.peakBuffered { stats.peakBuffered = body.count }
        let consumer = takeWaitingConsumer()
        let quiet = consumer != nil && MonotonicClock.nanoseconds() &- waitingSince >= Self.quietNanoseconds
        if quiet { stats.quietWakes += 1 }
        lock.unlock()
        if let consumer {
            // A token after a pause: read it here, without waking another thread for it.
            if quiet { ConsumerExecutor.runHere { consumer.resume() } } else { consumer.resume() }
        }
        return true
    }

    /// The transfer is over: with `error` if it failed. Bytes already sent are taken first.
    func finish(_ error: (any Error)? = nil) {
        lock.lock()
        if !ended {
            ended = true
            failure = error
        }
        let consumer = takeWaitingConsumer()
        lock.unlock()
        consumer?.resume()
    }

    // MARK: Either side

    /// The consumer is gone: the transfer stops at its next callback (or at once if it waits for
    /// room), and `next` ends the body with no error.
    func cancel() {
        lock.lock()
        consumerGone = true
        stopped.store(true, ordering: .relaxed)
        lock.broadcast()
        let consumer = takeWaitingConsumer()
        lock.unlock()
        consumer?.resume()
    }

    /// The consumer has all it wants of the body (the answer said it is complete) and is about
    /// to drop the stream: the rest of the body, usually a few bytes on their way, is taken and
    /// dropped for up to `drainNanoseconds`, so that the transfer ends as a whole one and its
    /// connection is kept, instead of being stopped mid-body, which closes it.
    func stopReading() {
        drainingSince.store(max(MonotonicClock.nanoseconds(), 1), ordering: .relaxed)
    }

    /// Whether the transfer, its consumer gone, may still take the rest of the body.
    var mayDrain: Bool {
        let since = drainingSince.load(ordering: .relaxed)
        return since != 0 && MonotonicClock.nanoseconds() &- since < Self.drainNanoseconds
    }

    /// The process is ending: the transfer stops, and the consumer gets the error it ends with.
    func abort() {
        lock.lock()
        stopped.store(true, ordering: .relaxed)
        lock.broadcast()
        lock.unlock()
    }

    // MARK: The consumer's side

    /// The head, then all the body bytes that arrived since the last call, in one part; waits
    /// when there are none yet. Cancelling the calling task ends the body (and the transfer).
    func next() async -> Step {
        while true {
            if Task.isCancelled {
                cancel()
                return .end(nil)
            }
            if let step = take() { return step }
            await withTaskCancellationHandler {
                await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                    lock.lock()
                    if hasSomething {
                        lock.unlock()
                        continuation.resume()
                    } else {
                        waitingConsumer = continuation
                        waitingSince = MonotonicClock.nanoseconds()
                        lock.unlock()
                    }
                }
            } onCancel: {
                cancel()
            }
        }
    }

    private var hasSomething: Bool {
        head != nil || !body.isEmpty || ended || consumerGone
    }

    private func take() -> Step? {
        lock.lock()
        defer { lock.unlock() }
        if consumerGone { return .end(nil) }
        if let value = head {
            head = nil
            return .part(.head(value))
        }
        if !body.isEmpty {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(min(body.count, limit))
            swap(&bytes, &body)
            stats.takes += 1
            if producerWaiting { lock.signal() }
            return .part(.body(bytes))
        }
        if ended { return .end(failure) }
        return nil
    }

    private func takeWaitingConsumer() -> UnsafeContinuation<Void, Never>? {
        defer { waitingConsumer = nil }
        return waitingConsumer
    }
}
