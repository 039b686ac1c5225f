import Foundation

/// Blocking work (a child process awaited, a server's start read line by line) run on a thread
/// of its own, so it never holds one of the test pool's threads: with two cores the pool has two,
/// and tests waiting meanwhile would resume only after their own deadlines.
public enum OffThePool {
    /// Runs `body` on a new thread and returns what it returns.
    public static func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try body() }) }.start()
        }
    }
}
