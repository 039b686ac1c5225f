import CTerminal
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns SIGINT, SIGTERM and SIGHUP into calls instead of death, so an answer can be stopped
/// cleanly and what arrived kept. The C handler only records the signal and writes a byte to a
/// pipe; this reads the pipe on a dispatch queue and calls the handler there. The handler is
/// installed without SA_RESTART, so a prompt blocked in libedit returns at once.
final class SignalWatcher {
    private var source: (any DispatchSourceRead)?

    /// Starts watching; `handler` runs on a background queue with each signal's number.
    func start(_ handler: @escaping @Sendable (Int32) -> Void) {
        let fd = cterm_signals_install()
        guard fd >= 0 else { return }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: .global())
        source.setEventHandler {
            var byte: UInt8 = 0
            while read(fd, &byte, 1) == 1 {
                handler(Int32(byte))
                var pending = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                if poll(&pending, 1, 0) <= 0 { break }
            }
        }
        source.resume()
        self.source = source
    }

    /// Runs `operation` in a task that SIGINT, SIGTERM and SIGHUP cancel (a one-shot's answer, a
    /// `-x` question); returns its result and the last signal received, if any.
    static func cancellingOnSignal<T: Sendable>(
        _ operation: sending @escaping @isolated(any) () async -> T
    ) async -> (value: T, signal: Int32?) {
        let task = Task(operation: operation)
        let signals = SignalWatcher()
        let received = SignalRecord()
        signals.start { number in
            received.store(number)
            task.cancel()
        }
        let value = await task.value
        withExtendedLifetime(signals) {}  // watching until the task has ended
        return (value, received.last)
    }

    /// The conventional exit status for a signal: 128 + its number.
    static func exitStatus(for signal: Int32) -> Int32 { 128 + signal }
}
