import Dispatch

/// Work that blocks its thread (reading standard input to its end, waiting for a child process)
/// runs on a queue of its own, never on Swift's cooperative pool, whose few threads the rest of
/// the run needs (the answer's decoding, the renderer). As `PipedLineReader` and `EditLineReader`
/// do for lines.
enum BlockingWork {
    /// `body`'s result, computed on a queue of its own.
    static func run<Result: Sendable>(_ label: String, _ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "chat." + label).async { continuation.resume(returning: body()) }
        }
    }
}
