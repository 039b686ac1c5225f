internal import CProcess

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Starts a child process as a shell would: no signal blocked and every signal's handling at its
/// default. A child inherits both from the thread that starts it, and chat's threads block
/// signals (Swift's and libdispatch's workers) and ignore SIGPIPE; an editor started so would not
/// see Ctrl-C or a window resize. It inherits no descriptor but standard input, output and error:
/// chat's own are close-on-exec, and where the C library can (glibc 2.34 on) every other one is
/// closed too, such as the socket pairs libcurl makes for itself.
public enum ProcessSpawn {
    /// Why a child could not be started: `posix_spawn`'s error number.
    public struct Failure: Error {
        public let code: Int32
    }

    /// Spawns `arguments[0]` (a path; with `searchPath`, a name looked for in `PATH` as a shell
    /// does) with `arguments` and `environment` (`NAME=value` entries; this process's when
    /// nil); the child's pid. With `ownProcessGroup`, the child leads a process group of its
    /// own, so the terminal's Ctrl-C (sent to the foreground group) does not reach it. `actions`
    /// gain, last, the closing of every descriptor above standard error.
    public static func spawn(
        _ arguments: [String], actions: UnsafeMutablePointer<posix_spawn_file_actions_t>?,
        environment: [String]? = nil, searchPath: Bool = false, ownProcessGroup: Bool = false
    ) -> Result<pid_t, Failure> {
        var own = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&own)
        defer { posix_spawn_file_actions_destroy(&own) }
        return withUnsafeMutablePointer(to: &own) { own in
            let actions = actions ?? own
            // Last, after the caller's actions have put what the child gets on 0, 1 and 2.
            _ = cprocess_spawn_close_from(UnsafeMutableRawPointer(actions), 3)
            return spawn(arguments, actions, environment, searchPath, ownProcessGroup)
        }
    }

    private static func spawn(
        _ arguments: [String], _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ environment: [String]?,
        _ searchPath: Bool, _ ownProcessGroup: Bool
    ) -> Result<pid_t, Failure> {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownProcessGroup {
            flags |= POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        var envp: [UnsafeMutablePointer<CChar>?]? = environment.map { $0.map { strdup($0) } + [nil] }
        defer { envp?.forEach { free($0) } }
        let result =
            if var envp {
                searchPath
                    ? posix_spawnp(&pid, arguments[0], actions, &attributes, &argv, &envp)
                    : posix_spawn(&pid, arguments[0], actions, &attributes, &argv, &envp)
            } else {
                searchPath
                    ? posix_spawnp(&pid, arguments[0], actions, &attributes, &argv, environ)
                    : posix_spawn(&pid, arguments[0], actions, &attributes, &argv, environ)
            }
        return result == 0 ? .success(pid) : .failure(Failure(code: result))
    }

    /// A pipe whose ends are close-on-exec from the moment they exist, so that no child started
    /// meanwhile by another thread inherits them (a child that does keeps the write end open, and
    /// its reader never sees the end); nil, with `errno` set, if there is none. A spawn's
    /// `dup2` onto 0 or 1 gives the child its end without the flag.
    public static func pipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard cprocess_pipe_cloexec(&ends) == 0 else { return nil }
        return (ends[0], ends[1])
    }

    /// Waits for child `pid` to end; its status as a shell gives it: the exit code, or 128 plus
    /// the number of the signal that ended it.
    public static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + status & 0x7F
    }

    /// Leaves the ending of the process groups led by `pids` (children this process started
    /// with `ownProcessGroup`) to a watcher that outlives this process, for a process about to
    /// end: SIGTERM to those still running after `terminateAfter` seconds, SIGKILL after
    /// `killAfter` more. False where the system has no way to (no pidfd before Linux 5.3, no
    /// fork): the caller then waits for them itself.
    public static func endAfterExit(_ pids: [pid_t], terminateAfter: Double, killAfter: Double) -> Bool {
        let pids: [Int32] = pids.map { Int32($0) }
        return pids.withUnsafeBufferPointer { buffer in
            cprocess_end_after_exit(
                buffer.baseAddress, Int32(buffer.count), Int32(terminateAfter * 1000), Int32(killAfter * 1000)) == 0
        }
    }

    /// Runs `arguments` (as `spawn` does) to its end and returns its status (as `wait` gives it)
    /// and all it wrote on standard output. With `quiet`, its standard input and error are
    /// /dev/null; otherwise they stay this process's (a command that asks for a passphrase can).
    public static func output(_ arguments: [String], quiet: Bool = false, searchPath: Bool = false) -> Result<
        (status: Int32, output: [UInt8]), Failure
    > {
        guard let ends = pipe() else { return .failure(Failure(code: errno)) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if quiet { posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0) }
        posix_spawn_file_actions_adddup2(&actions, ends.write, 1)
        if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        let spawned = spawn(arguments, actions: &actions, searchPath: searchPath)
        close(ends.write)
        let pid: pid_t
        switch spawned {
        case .success(let child):
            pid = child
        case .failure(let failure):
            close(ends.read)
            return .failure(failure)
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(ends.read, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: buffer[0..<count])
        }
        close(ends.read)
        return .success((wait(pid), output))
    }
}
