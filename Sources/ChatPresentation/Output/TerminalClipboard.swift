import ChatDomain

/// The terminal's own clipboard, through OSC 52: the text, base64-encoded, in an escape
/// sequence the terminal acts on (also over SSH). Terminals give no answer, so the text is
/// *sent*; inside tmux it reaches the clipboard only with `set-clipboard on`, which the result
/// mentions when `TMUX` is set. Terminals take about 100,000 bytes of base64, so at most
/// 74,000 bytes of text.
public struct TerminalClipboard: Clipboard {
    private let terminal: any OutputSink
    private let insideTmux: Bool
    /// The most text one copy takes.
    public static let limit = 74_000

    /// Writes to `terminal`; `environment` tells whether this runs inside tmux.
    public init(terminal: any OutputSink, environment: [String: String]) {
        self.terminal = terminal
        insideTmux = environment["TMUX"].map { !$0.isEmpty } ?? false
    }

    public func copy(_ text: String) -> ClipboardResult {
        let size = text.utf8.count
        guard size <= Self.limit else {
            return .failed("\(size / 1000) kB is more than a terminal takes through OSC 52 (about 74 kB)")
        }
        guard terminal.write("\u{1B}]52;c;\(Base64.encode(Array(text.utf8)))\u{07}") else {
            return .failed("the terminal could not be written to")
        }
        let note = insideTmux ? "inside tmux this reaches the clipboard only with: tmux set -g set-clipboard on" : nil
        return .copied(via: "OSC 52 (your terminal's clipboard)", note: note)
    }
}
