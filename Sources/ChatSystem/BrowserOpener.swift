#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Opens a URL in the person's browser, as the `BROWSER` convention has it: a command, or a
/// `:`-separated list of them tried in turn until one succeeds, `%s` standing for the URL (`%%`
/// for a `%`), else the URL as the last argument; each run by `/bin/sh -c` with the URL quoted.
/// Without `BROWSER`, `xdg-open` where a display exists (`DISPLAY`, `WAYLAND_DISPLAY`); else
/// there is no browser, and the caller shows the URL. The browser's output goes nowhere: stdout
/// carries only chat's answer.
package struct BrowserOpener: Sendable {
    /// The shell commands tried, in order, each with the URL's place marked by `%s`.
    package let commands: [String]
    private let environment: [String: String]

    /// The browser `environment` names.
    package init(environment: [String: String]) {
        self.environment = environment
        if let browser = environment["BROWSER"], !browser.isEmpty {
            commands = browser.split(separator: ":").map(String.init).filter { !$0.isEmpty }
        } else if !(environment["DISPLAY"] ?? "").isEmpty || !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty {
            commands = ["xdg-open %s"]
        } else {
            commands = []
        }
    }

    /// Whether there is a browser to try.
    package var isAvailable: Bool { !commands.isEmpty }

    /// `command` with the URL in place: `%s` replaced by it (quoted for the shell), `%%` by `%`;
    /// else the URL after it, as its last argument.
    package static func commandLine(_ command: String, url: String) -> String {
        let quoted = "'" + url.replacing("'", with: #"'\''"#) + "'"
        guard command.contains("%s") else { return command + " " + quoted }
        var line = ""
        var rest = Substring(command)
        while let percent = rest.firstIndex(of: "%") {
            line += rest[..<percent]
            let next = rest.index(after: percent)
            if next < rest.endIndex && rest[next] == "s" {
                line += quoted
                rest = rest[rest.index(after: next)...]
            } else if next < rest.endIndex && rest[next] == "%" {
                line += "%"
                rest = rest[rest.index(after: next)...]
            } else {
                line += "%"
                rest = rest[next...]
            }
        }
        return line + rest
    }

    /// Opens `url`: each command in turn until one exits 0. False when there is none, or none
    /// did. Waits for each command to end (`xdg-open` and most browsers' launchers return at
    /// once): call it off the concurrency pool's threads.
    package func open(_ url: String) -> Bool {
        let variables = environment.map { "\($0.key)=\($0.value)" }
        for command in commands {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for fd: Int32 in [0, 1, 2] {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            }
            let line = Self.commandLine(command, url: url)
            guard
                case .success(let pid) = ProcessSpawn.spawn(
                    ["/bin/sh", "-c", line], actions: &actions, environment: variables, ownProcessGroup: true)
            else { continue }
            if ProcessSpawn.wait(pid) == 0 { return true }
        }
        return false
    }
}
