import ChatDomain
import Synchronization

/// Says what the history tells while the chat goes on (a damaged database salvaged, a write
/// that failed), one warning line each on the notes stream. A one-shot holds back failed
/// writes: its last line says what became of the conversation (`UnstoredConversation`), so an
/// accident is one line.
public final class HistoryWarnings: Sendable {
    private let notes: any OutputSink
    private let style: TerminalStyle
    private let holdingFailedWrites = Mutex(false)

    /// Writes to `notes` in `style`.
    public init(notes: any OutputSink, style: TerminalStyle) {
        self.notes = notes
        self.style = style
    }

    /// Says `notice`, unless it is a failed write held back. It may come while the waiting
    /// indicator is drawn (the question's write fails as the answer is awaited): on a terminal
    /// the line is cleared first, and the indicator goes on below.
    public func report(_ notice: HistoryNotice) {
        if case .notStored = notice, holdingFailedWrites.withLock({ $0 }) { return }
        let clear = style.colour ? "\r\u{1B}[2K" : ""
        notes.write(clear + style.warning("chat: warning: " + ErrorWording.line(for: notice)) + "\n")
    }

    /// From now on a failed write is not said when it happens.
    public func holdFailedWrites() {
        holdingFailedWrites.withLock { $0 = true }
    }
}
