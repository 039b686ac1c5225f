import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a task reading an answer prefers to run (`AnswerReader.read`).
///
/// Normally that is its `fallback` (the global executor), as for any task. But a delivery that
/// wakes a reader which had been waiting for a while (a token after a pause: the first one, or
/// a slow model's) runs the reader right there, on the transfer's thread, until it waits again:
/// the token goes from the socket to the reader's `onEvent` (and on to the terminal) without
/// waking another thread for it (docs/PERFORMANCE.md, round 9). A burst (writes microseconds
/// apart) still wakes the reader elsewhere, so reading the network and decoding overlap on two
/// cores (`ResponseChannel` decides).
///
/// The reader leaves the transfer's thread before `AnswerReader.read` returns
/// (`leaveTransferThread`), so what follows the answer never runs inside libcurl's callback.
package final class ConsumerExecutor: TaskExecutor {
    package static let shared = ConsumerExecutor()

    /// A job made ready inside `runHere`, and the executor it was enqueued on.
    private struct Job {
        let job: UnownedJob
        let executor: ConsumerExecutor
    }

    /// A thread inside `runHere`, with what was enqueued on it meanwhile.
    private struct Visit {
        let thread: pthread_t
        var jobs: [Job]

        init(thread: pthread_t) {
            self.thread = thread
            jobs = []
            // Made now, so the delivery's first job finds the array's storage (and its type).
            jobs.reserveCapacity(2)
        }
    }

    /// Concrete element types, not tuples: the first delivery that runs a reader here must not
    /// build the type metadata of tuple arrays at run time (docs/PERFORMANCE.md, round 9).
    private static let visits = Mutex<[Visit]>([])

    private let fallback: any TaskExecutor

    /// An executor that runs what is not woken by a delivery on `fallback`.
    init(fallback: any TaskExecutor = globalConcurrentExecutor) {
        self.fallback = fallback
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let ready = Job(job: UnownedJob(job), executor: self)
        let thread = pthread_self()
        let kept = Self.visits.withLock { visits -> Bool in
            guard let index = visits.firstIndex(where: { pthread_equal($0.thread, thread) != 0 }) else { return false }
            visits[index].jobs.append(ready)
            return true
        }
        if !kept { fallback.enqueue(ExecutorJob(ready.job)) }
    }

    /// Runs `wake` (which may resume a reader that prefers a `ConsumerExecutor`), then, on this
    /// thread, whatever that made ready, until the reader waits again. Every job made ready on
    /// this thread meanwhile runs here, not only the reader's: in practice there is no other (one
    /// answer is read at a time, and the loop's body makes no tasks that prefer this executor).
    static func runHere(_ wake: () -> Void) {
        // Already here (a delivery inside a delivery): the outer call runs what this one makes ready.
        guard !runsHere else {
            wake()
            return
        }
        let thread = pthread_self()
        visits.withLock { $0.append(Visit(thread: thread)) }
        wake()
        while let ready = nextJob(on: thread) {
            ready.job.runSynchronously(on: ready.executor.asUnownedTaskExecutor())
        }
        visits.withLock { visits in visits.removeAll { pthread_equal($0.thread, thread) != 0 } }
    }

    /// Whether the calling code runs inside `runHere`, on the thread a delivery came on.
    static var runsHere: Bool {
        let thread = pthread_self()
        return visits.withLock { $0.contains { pthread_equal($0.thread, thread) != 0 } }
    }

    /// Moves the calling task off the transfer's thread if it runs there (a reader whose
    /// preference has ended): it goes on where tasks without a preference run. Today Swift hops
    /// there anyway when the reader's nonisolated function returns; under the caller-inherits
    /// rule of Swift 6.2's `NonisolatedNonsendingByDefault` it would not, and what follows the
    /// answer would run inside libcurl's callback.
    static func leaveTransferThread() async {
        guard runsHere else { return }
        await Task.yield()
    }

    /// Pays `runHere`'s first-use costs now (while a request is on its way), not when it first
    /// runs a reader.
    static func warmUp() {
        runHere {}
    }

    private static func nextJob(on thread: pthread_t) -> Job? {
        visits.withLock { visits in
            guard let index = visits.firstIndex(where: { pthread_equal($0.thread, thread) != 0 }),
                !visits[index].jobs.isEmpty
            else { return nil }
            return visits[index].jobs.removeFirst()
        }
    }
}
