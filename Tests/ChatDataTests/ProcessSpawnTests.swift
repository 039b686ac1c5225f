import Dispatch
import Foundation
import Testing

@testable import ChatSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Children start as a shell would start them, whatever thread starts them: `api_key_command`
/// and `$EDITOR` must see Ctrl-C, a resize and a closed pipe as usual.
@Suite("Child processes")
struct ProcessSpawnTests {
    /// A `/proc/self/status` mask line of the child, as a number.
    private func mask(_ name: String, in status: String) throws -> UInt64 {
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(name + ":") })
        return try #require(UInt64(line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces), radix: 16))
    }

    @Test func aChildBlocksNoSignalAndIgnoresNoPipeSignal() throws {
        // Started as chat starts it: SIGPIPE ignored, from a thread that blocks signals.
        signal(SIGPIPE, SIG_IGN)
        let result = try DispatchQueue(label: "blocking-signals").sync {
            var all = sigset_t()
            var previous = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_BLOCK, &all, &previous)
            defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
            return try ShellCommand.run("cat /proc/self/status")
        }
        #expect(result.status == 0)
        let status = String(decoding: result.output, as: UTF8.self)
        #expect(try mask("SigBlk", in: status) == 0)
        let sigpipe: UInt64 = 1 << (13 - 1)
        #expect(try mask("SigIgn", in: status) & sigpipe == 0)
    }

    /// Whether this C library can close a child's other descriptors (glibc 2.34 and later).
    static let closesTheRest =
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") != nil

    /// This process's descriptors whose `/proc/self/fd` link `matches`.
    static func descriptors(_ matches: (String) -> Bool) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap(Int32.init).filter { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")).map(matches)
                ?? false
        }
    }

    /// The descriptors a child started by `ProcessSpawn` holds, as `readlink` names them.
    static func heldByAChild() throws -> [String] {
        let listing = NSTemporaryDirectory() + "chat-spawn-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: listing) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, listing, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let child = try ProcessSpawn.spawn(
            ["/bin/sh", "-c", "for f in /proc/$$/fd/*; do readlink $f; done; exit 0"], actions: &actions
        ).get()
        #expect(ProcessSpawn.wait(child) == 0)
        let held = try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(held.contains(listing), "\(held)")  // its own output: the listing works
        return held
    }

    @Test(.enabled(if: closesTheRest, "the C library cannot close a child's other descriptors"))
    func aDescriptorOpenedWithoutCloseOnExecIsNotInherited() throws {
        // As libcurl makes its socket pairs: no close-on-exec.
        var ends: [Int32] = [-1, -1]
        #expect(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        let pipe = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(ends[0])")
        let held = try Self.heldByAChild()
        #expect(!held.contains(pipe), "\(held)")
    }

    @Test func aPipeFromProcessSpawnIsCloseOnExec() throws {
        let ends = try #require(ProcessSpawn.pipe())
        defer {
            close(ends.read)
            close(ends.write)
        }
        #expect(fcntl(ends.read, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(ends.write, F_GETFD) & FD_CLOEXEC != 0)
    }
}
