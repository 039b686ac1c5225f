#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The history file of the person's shell, for `chat -x --history-append`: a command run from
/// chat is added where the shell keeps its own, in the shell's format, so it can be recalled
/// there later (bash and zsh read the file when they start; fish notices at once).
public struct ShellHistoryFile: Sendable {
    /// The file.
    public let path: String
    private let format: Format

    private enum Format {
        case bash
        case zsh
        case fish
    }

    /// The history file of the shell `$SHELL` names: `$HISTFILE` when set, else the shell's own
    /// default (`~/.bash_history`, `~/.zsh_history`, fish's `fish_history` in `$XDG_DATA_HOME`).
    /// Nil for a shell whose history file chat does not know.
    public init?(environment: [String: String]) {
        let shell = (environment["SHELL"] ?? "").split(separator: "/").last.map(String.init) ?? ""
        let home = environment["HOME"] ?? ""
        let histfile = environment["HISTFILE"].flatMap { $0.isEmpty ? nil : $0 }
        switch shell {
        case "bash":
            format = .bash
            path = histfile ?? home + "/.bash_history"
        case "zsh":
            format = .zsh
            path = histfile ?? home + "/.zsh_history"
        case "fish":
            format = .fish
            let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home + "/.local/share"
            path = data + "/fish/fish_history"
        default:
            return nil
        }
        guard path.hasPrefix("/") else { return nil }
    }

    /// Appends `command`, run at `time` (seconds since 1970; nil: now); the reason when it cannot.
    public func append(_ command: String, at time: Double? = nil) -> String? {
        let seconds = Int(time ?? WallClock.now())
        let entry: String
        switch format {
        case .bash:
            entry = command + "\n"
        case .zsh:
            // The extended format; a newline inside the command is written as zsh does, `\` first.
            entry = ": \(seconds):0;" + command.replacing("\n", with: "\\\n") + "\n"
        case .fish:
            let escaped = command.replacing("\\", with: "\\\\").replacing("\n", with: "\\n")
            entry = "- cmd: \(escaped)\n  when: \(seconds)\n"
        }
        let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return String(cString: strerror(errno)) }
        defer { close(fd) }
        let bytes = Array(entry.utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        return written == bytes.count ? nil : String(cString: strerror(errno))
    }
}
