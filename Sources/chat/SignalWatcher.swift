import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns SIGINT, SIGTERM and SIGHUP into a call instead of death, so an answer can be stopped
/// cleanly and what arrived kept. Remembers the last signal for the exit status.
final class SignalWatcher {
    private final class Record: Sendable {
        let last = Atomic<Int32>(0)
    }

    private let record = Record()
    private var sources: [any DispatchSourceSignal] = []

    /// The last signal that arrived, or nil.
    var lastSignal: Int32? {
        let value = record.last.load(ordering: .relaxed)
        return value == 0 ? nil : value
    }

    /// Starts watching; `handler` runs on a background queue for each signal.
    func start(_ handler: @escaping @Sendable (Int32) -> Void) {
        let record = self.record
        sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                record.last.store(number, ordering: .relaxed)
                handler(number)
            }
            source.resume()
            return source
        }
    }

    /// The conventional exit status for a signal: 128 + its number.
    static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }
}
