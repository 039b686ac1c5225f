import Synchronization

/// A small spinner on the notes stream until the first piece of an answer arrives. Shown only
/// on a terminal with colour allowed; elsewhere it does nothing.
final class WaitingIndicator: Sendable {
    private let notes: any OutputSink
    private let enabled: Bool
    /// Whether it is showing; the lock also orders its writes against `stop`.
    private let showing = Mutex(false)
    private static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    init(notes: any OutputSink, style: TerminalStyle) {
        self.notes = notes
        self.enabled = notes.isTerminal && style.colour
    }

    /// Starts spinning; returns the task that draws it.
    func start() -> Task<Void, Never>? {
        guard enabled else { return nil }
        showing.withLock { $0 = true }
        return Task { [self] in
            var frame = 0
            while !Task.isCancelled {
                let drawn = showing.withLock { showing -> Bool in
                    guard showing else { return false }
                    notes.write("\r\u{1B}[2m\(Self.frames[frame % Self.frames.count]) waiting\u{1B}[0m")
                    return true
                }
                guard drawn else { return }
                frame += 1
                try? await Task.sleep(for: .milliseconds(80))
            }
        }
    }

    /// Clears it; safe to call more than once.
    func stop() {
        showing.withLock { showing in
            if showing {
                notes.write("\r\u{1B}[2K")
                showing = false
            }
        }
    }
}
