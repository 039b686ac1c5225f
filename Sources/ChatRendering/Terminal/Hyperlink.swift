/// OSC 8 hyperlinks: whether a terminal is known to show them (support cannot be queried; these
/// are the environment variables terminals that do are known to set, as in zkat's
/// supports-hyperlinks), and which URLs may be put in one.
package enum Hyperlink {
    /// Whether the environment names a terminal known to support OSC 8. `FORCE_HYPERLINK=1`
    /// turns them on and `FORCE_HYPERLINK=0` off; inside tmux or screen they are off (tmux passes
    /// them on only from 3.4, and not by default).
    package static func supported(environment: [String: String]) -> Bool {
        if let force = environment["FORCE_HYPERLINK"], !force.isEmpty { return force != "0" }
        if environment["TMUX"] != nil || (environment["TERM"] ?? "").hasPrefix("screen") { return false }
        if environment["DOMTERM"] != nil || environment["WT_SESSION"] != nil || environment["KONSOLE_VERSION"] != nil {
            return true
        }
        if let vte = environment["VTE_VERSION"].flatMap(Int.init), vte >= 5000 { return true }
        if let program = environment["TERM_PROGRAM"],
            ["Hyper", "iTerm.app", "terminology", "WezTerm", "vscode", "ghostty"].contains(program)
        {
            return true
        }
        return ["xterm-kitty", "alacritty", "xterm-ghostty", "foot"].contains(environment["TERM"] ?? "")
    }

    /// `url` if it may go into a hyperlink: http, https or mailto, printable ASCII only.
    static func safeURL(_ url: String) -> String? {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:") else {
            return nil
        }
        guard url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return url
    }
}
