import ChatDomain
import Synchronization

/// Says what the history tells while the chat goes on (a damaged database salvaged, a write
/// that failed), one warning line each. A one-shot holds back failed writes: its last line says
/// what became of the conversation (`UnstoredConversation`), so an accident is one line.
public final class HistoryWarnings: Sendable {
    private let write: @Sendable (String) -> Void
    private let holdingFailedWrites = Mutex(false)

    /// Writes each line with `write` (which adds the `chat: warning:` and the style).
    public init(_ write: @escaping @Sendable (String) -> Void) {
        self.write = write
    }

    /// Says `notice`, unless it is a failed write held back.
    public func report(_ notice: HistoryNotice) {
        if case .notStored = notice, holdingFailedWrites.withLock({ $0 }) { return }
        write(ErrorWording.line(for: notice))
    }

    /// From now on a failed write is not said when it happens.
    public func holdFailedWrites() {
        holdingFailedWrites.withLock { $0 = true }
    }
}
