import ChatPresentation
import ChatSystem
import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `TextEditor` that runs `$VISUAL` or `$EDITOR` (else `vi`) on a private temporary file, and
/// waits for it on a queue of its own.
struct ShellTextEditor: TextEditor {
    var command: String
    /// What the editor is for, as its failures name it (`/edit could not start vim`).
    var purpose = "/edit"
    /// What a failed edit leaves, as its failure says it.
    var whenFailed = "nothing sent"

    init(environment: [String: String]) {
        command = Self.configured(in: environment) ?? "vi"
    }

    /// The editor `$VISUAL` or `$EDITOR` names, if either does.
    static func configured(in environment: [String: String]) -> String? {
        [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty }
    }

    func edit(_ initial: String) async -> Result<String, EditorFailure> {
        await withCheckedContinuation { continuation in
            DispatchQueue(label: "chat.editor").async { continuation.resume(returning: editNow(initial)) }
        }
    }

    /// Runs the editor and waits for it, blocking the thread.
    private func editNow(_ initial: String) -> Result<String, EditorFailure> {
        var template = Array("/tmp/chat-message-XXXXXX.md".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemps(base, 3)
        }
        guard fd >= 0 else { return .failure(EditorFailure("\(purpose) could not create a temporary file")) }
        let path = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { unlink(path) }
        _ = initial.withCString { write(fd, $0, strlen($0)) }
        close(fd)

        // Behind a pipe (`chat | tee log`) the editor still draws on the terminal, not in the file.
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if isatty(1) == 0, case let tty = open("/dev/tty", O_WRONLY | O_CLOEXEC), tty >= 0 {
            close(tty)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/tty", O_WRONLY, 0)
        }
        guard
            case .success(let pid) = ProcessSpawn.spawn(
                ["/bin/sh", "-c", command + " \"$1\"", "sh", path], actions: &actions)
        else {
            return .failure(EditorFailure("\(purpose) could not start \(command)"))
        }
        guard ProcessSpawn.wait(pid) == 0 else {
            return .failure(EditorFailure("the editor (\(command)) failed; \(whenFailed)"))
        }
        var bytes: [UInt8] = []
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return .failure(EditorFailure("\(purpose) could not read what was saved")) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        close(input)
        var text = String(decoding: bytes, as: UTF8.self)
        while text.last?.isNewline == true { text.removeLast() }
        return .success(text)
    }
}
