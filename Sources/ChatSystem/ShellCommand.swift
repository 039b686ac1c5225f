#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a command line with `/bin/sh -c` and captures its standard output; standard input and
/// error stay the terminal's, so a command that asks for a passphrase can.
package enum ShellCommand {
    package struct Failure: Error {
        package var message: String
    }

    package static func run(_ command: String) throws(Failure) -> (status: Int32, output: [UInt8]) {
        guard let ends = ProcessSpawn.pipe() else { throw Failure(message: "could not create a pipe") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends.write, 1)

        let spawned = ProcessSpawn.spawn(["/bin/sh", "-c", command], actions: &actions)
        close(ends.write)
        let pid: pid_t
        switch spawned {
        case .success(let child):
            pid = child
        case .failure(let failure):
            close(ends.read)
            throw Failure(message: "could not run /bin/sh: \(String(cString: strerror(failure.code)))")
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(ends.read, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            output.append(contentsOf: buffer[0..<count])
        }
        close(ends.read)
        return (ProcessSpawn.wait(pid), output)
    }
}
