import Foundation
import Glibc

/// A small file system of its own, for a test that needs a full disk: a tmpfs the test mounts
/// (which needs root, and the right to mount), unmounted when it goes.
public final class SmallFileSystem {
    /// Where it is mounted.
    public let path = NSTemporaryDirectory() + "chat-small-fs-\(UUID().uuidString)"
    private var mounted = false

    /// Whether this process may mount one (root, with the right to mount): tried once.
    public static let available: Bool = {
        guard geteuid() == 0 else { return false }
        return (try? SmallFileSystem(kilobytes: 64)) != nil
    }()

    /// Mounts a tmpfs of `kilobytes`, private to its owner (root).
    public init(kilobytes: Int) throws {
        guard mkdir(path, 0o700) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        guard Glibc.mount("tmpfs", path, "tmpfs", 0, "size=\(kilobytes)k,mode=0755") == 0 else {
            let error = POSIXError(.init(rawValue: errno) ?? .EIO)
            rmdir(path)
            throw error
        }
        mounted = true
    }

    /// Fills what is left with one file, to the last byte; returns its path.
    @discardableResult
    public func fill() -> String {
        let filler = path + "/filler"
        let fd = open(filler, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let block = [UInt8](repeating: 0x46, count: 4096)
        while write(fd, block, block.count) > 0 {}
        while write(fd, block, 1) > 0 {}
        close(fd)
        return filler
    }

    /// Gives the room back.
    public func empty() {
        unlink(path + "/filler")
    }

    deinit {
        if mounted { umount2(path, 2) }  // MNT_DETACH
        rmdir(path)
    }
}
