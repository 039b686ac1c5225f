import ChatDomain
import ChatPresentation
import Testing

@Suite("History warnings")
struct HistoryWarningsTests {
    private let full = HistoryNotice.notStored(DatabaseFailure(kind: .full, reason: "database or disk is full"))
    private let salvaged = HistoryNotice.salvaged(
        HistorySalvage(damagedPath: "/d/h.damaged", recovered: 2, partlyRecovered: 0, unreadable: 0))

    @Test func eachNoticeIsOneWarningLineAndAOneShotHoldsBackFailedWrites() {
        let notes = CapturingSink(isTerminal: false)
        let warnings = HistoryWarnings(notes: notes, style: .plain)
        warnings.report(full)
        warnings.holdFailedWrites()
        warnings.report(full)
        warnings.report(salvaged)
        #expect(
            notes.text
                == "chat: warning: \(ErrorWording.line(for: full))\nchat: warning: \(ErrorWording.line(for: salvaged))\n"
        )
    }

    @Test func onATerminalTheLineIsClearedFirstForTheWaitingIndicator() {
        let notes = CapturingSink(isTerminal: true)
        let warnings = HistoryWarnings(
            notes: notes, style: TerminalStyle(isTerminal: true, environment: ["TERM": "xterm"]))
        warnings.report(full)
        #expect(notes.text.hasPrefix("\r\u{1B}[2K\u{1B}[33mchat: warning: history: could not save"))
        #expect(notes.text.hasSuffix("\n"))
    }
}
