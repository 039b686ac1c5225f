/// Where `/copy` puts text: the terminal's clipboard (OSC 52) or a clipboard program.
public protocol Clipboard: Sendable {
    /// Puts `text` on the clipboard; says how, or why it could not.
    func copy(_ text: String) async -> ClipboardResult
}

/// What a `Clipboard` did with the text.
public enum ClipboardResult: Sendable, Equatable {
    /// Sent on its way by `via` ("wl-copy", "OSC 52"); `note` says what it may still need.
    case copied(via: String, note: String?)
    /// Not copied, and why.
    case failed(String)
}
