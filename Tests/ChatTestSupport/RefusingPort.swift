import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port on which connections are refused, and the socket that reserves it.
public enum RefusingPort {
    /// Runs `body` with a port bound but not listening: the kernel refuses connections to it,
    /// and no other test can take the port while `body` runs (as could happen to a port that
    /// was bound and closed again).
    public static func with<T>(_ body: (Int) async throws -> T) async throws -> T {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = in_addr_t(0x7f00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        return try await body(Int(UInt16(bigEndian: addr.sin_port)))
    }
}
