import ChatPresentation
import ChatSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A clipboard program for `/copy` where a display is: `wl-copy` under Wayland, `xclip` or
/// `xsel` under X11. The text goes to its standard input.
struct ProgramClipboard: Clipboard {
    let path: String
    let arguments: [String]

    /// The program for this session's display, if one is installed.
    static func find(environment: [String: String]) -> ProgramClipboard? {
        let directories = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        func program(_ name: String) -> String? {
            directories.lazy.map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
        }
        let has = { (name: String) in !(environment[name] ?? "").isEmpty }
        if has("WAYLAND_DISPLAY"), let path = program("wl-copy") { return ProgramClipboard(path: path, arguments: []) }
        if has("DISPLAY") {
            if let path = program("xclip") {
                return ProgramClipboard(path: path, arguments: ["-selection", "clipboard"])
            }
            if let path = program("xsel") {
                return ProgramClipboard(path: path, arguments: ["--clipboard", "--input"])
            }
        }
        return nil
    }

    private var name: String { String(path.split(separator: "/").last ?? "") }

    /// The program is started, fed the text and waited for on a queue of its own: the write and
    /// the wait block until the program has read it all and ended.
    func copy(_ text: String) async -> ClipboardResult {
        await BlockingWork.run("clipboard") { copyNow(text) }
    }

    private func copyNow(_ text: String) -> ClipboardResult {
        guard let pipe = ProcessSpawn.pipe() else { return .failed("no pipe to \(name)") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe.read, 0)
        // The program may stay behind to serve the selection: it must hold none of chat's outputs.
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let spawned = ProcessSpawn.spawn([path] + arguments, actions: &actions)
        close(pipe.read)
        guard case .success(let pid) = spawned else {
            close(pipe.write)
            return .failed("\(name) could not be started")
        }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes {
                write(pipe.write, $0.baseAddress?.advanced(by: offset), $0.count - offset)
            }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { break }
            offset += written
        }
        close(pipe.write)
        let status = ProcessSpawn.wait(pid)
        guard status == 0 else { return .failed("\(name) failed (status \(status))") }
        return .copied(via: name, note: nil)
    }
}
