import ChatTestSupport
import Foundation
import Glibc
import Testing

/// Small helpers shared by the tests that talk to `LoopbackServer` through libcurl.
enum LoopbackTestHelpers {
    /// Stops `server` on a thread of its own: `stop()` blocks for up to a poll slice (50 ms), and
    /// blocking the few threads of the cooperative pool would delay other tests' consumers.
    static func stopInBackground(_ server: LoopbackServer) {
        Thread { server.stop() }.start()
    }

    /// `count` bytes of a pattern that repeats every 251 bytes (a prime, so it never lines up
    /// with buffer sizes); built by doubling, since a per-byte loop is slow in debug builds.
    static func patternBytes(count: Int) -> [UInt8] {
        var bytes = (0..<251).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        while bytes.count < count { bytes += bytes }
        return Array(bytes.prefix(count))
    }

    /// Runs blocking `work` on a thread of its own and returns its result, leaving the cooperative
    /// pool free for the other tests' consumers.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: work()) }.start()
        }
    }

    /// Polls `condition` every 10 ms, without blocking a cooperative thread, until it holds or
    /// `timeout` seconds pass; returns whether it held.
    static func eventually(timeout: Double, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}

extension ContinuousClock.Instant {
    /// Seconds from this instant until now.
    var secondsElapsed: Double {
        let duration = self.duration(to: .now)
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}

/// Runs each test of a suite on `OwnThreadExecutor.shared`, a thread of its own, instead of
/// Swift's cooperative pool. Child tasks inherit that; a `Task {}` does not, and must ask with
/// `Task(executorPreference: OwnThreadExecutor.shared)`.
///
/// The pool has as many threads as cores (two on a small CI machine), and synchronous tests
/// elsewhere in the run (e.g. ones that wait for a child process) block them for seconds. A
/// consumer that records when pieces arrive, or how soon a loop ends, must not wait behind them.
struct OwnThreadTrait: SuiteTrait, TestTrait, TestScoping {
    var isRecursive: Bool { true }

    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(OwnThreadExecutor.shared) {
            try await function()
        }
    }
}

extension Trait where Self == OwnThreadTrait {
    /// Runs the tests on `OwnThreadExecutor.shared`, away from blocked cooperative threads.
    static var onOwnThread: Self { OwnThreadTrait() }
}

/// A task executor with one thread that runs jobs in order. The tests that use it never block,
/// so one thread serves them all; it lives as long as the test process.
final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    // `@unchecked`: `jobs` is only touched with `condition` locked.
    static let shared = OwnThreadExecutor()

    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init() {
        Thread { [self] in run() }.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    private func run() {
        while true {
            condition.lock()
            while jobs.isEmpty { condition.wait() }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
