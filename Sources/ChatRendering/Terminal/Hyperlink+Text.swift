extension Hyperlink {
    /// `text` inside an OSC 8 hyperlink to `url`, when the URL may go into one (`safeURL`);
    /// else `text` alone. `text` must already be safe to print.
    package static func linked(_ text: String, to url: String) -> String {
        guard let safe = safeURL(url) else { return text }
        return "\u{1B}]8;;\(safe)\u{1B}\\" + text + "\u{1B}]8;;\u{1B}\\"
    }
}
