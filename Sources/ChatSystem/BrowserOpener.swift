#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens a URL in the person's browser, as the `BROWSER` convention has it: the variable, when
/// set, is a command or a `:`-separated list of them, each tried in turn until one succeeds, `%s`
/// standing for the URL (else the URL is its last argument); without it, `xdg-open` where there
/// is a display (`DISPLAY`, `WAYLAND_DISPLAY`); else nothing is opened, and the caller shows the
/// URL. The browser gets the terminal (`/dev/tty`) as its standard input and output when there is
/// one, `/dev/null` else: never chat's own output, which carries only the answer. Blocks until the
/// command ends (a console browser runs in the terminal until the person leaves it).
public struct BrowserOpener: Sendable {
    /// How opening went.
    public enum Outcome: Sendable, Equatable {
        /// This command took the URL.
        case opened(command: String)
        /// No browser to open it with: no `BROWSER`, and no display for `xdg-open`.
        case noBrowser
        /// Every command tried failed (the last one named, with why).
        case failed(command: String, reason: String)
    }

    private let environment: [String: String]

    /// The browser `environment` names.
    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// The commands to try, each as its words, the URL in place: `BROWSER`'s, else `xdg-open`
    /// when there is a display; empty: none.
    public func commands(for url: String) -> [[String]] {
        if let browser = environment["BROWSER"], !browser.allSatisfy(\.isWhitespace) {
            return browser.split(separator: ":").compactMap { command -> [String]? in
                let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                guard !words.isEmpty else { return nil }
                let placed = words.map { $0.replacing("%s", with: url).replacing("%%", with: "%") }
                return words.contains { $0.contains("%s") } ? placed : placed + [url]
            }
        }
        let display = ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
        return display ? [["xdg-open", url]] : []
    }

    /// Opens `url` with the first command that succeeds (exit status 0).
    public func open(_ url: String) -> Outcome {
        let commands = commands(for: url)
        guard !commands.isEmpty else { return .noBrowser }
        var last = Outcome.noBrowser
        for words in commands {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            let device = access("/dev/tty", R_OK | W_OK) == 0 ? "/dev/tty" : "/dev/null"
            posix_spawn_file_actions_addopen(&actions, 0, device, O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, device, O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, device, O_WRONLY, 0)
            switch ProcessSpawn.spawn(words, actions: &actions, searchPath: !words[0].contains("/")) {
            case .success(let pid):
                let status = ProcessSpawn.wait(pid)
                if status == 0 { return .opened(command: words[0]) }
                last = .failed(command: words[0], reason: "it ended with status \(status)")
            case .failure(let failure):
                last = .failed(command: words[0], reason: String(cString: strerror(failure.code)))
            }
        }
        return last
    }
}
