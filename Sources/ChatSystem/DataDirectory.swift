import ChatDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where chat keeps its own files: `$XDG_DATA_HOME/chat`, else `~/.local/share/chat`. Private:
/// the directory is made 0700.
public struct DataDirectory: Sendable {
    /// The directory's path.
    public let path: String

    /// The data directory for `environment`, or nil when neither variable gives one.
    public init?(environment: [String: String]) {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            path = xdg + "/chat"
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            path = home + "/.local/share/chat"
        } else {
            return nil
        }
    }

    /// Creates the directory (and its parents) if needed, mode 0700; false if it cannot.
    public func prepare() -> Bool {
        unprepared() == nil
    }

    /// Creates the directory (and its parents) if needed, mode 0700: nil when it is ready, else
    /// which step failed, with the system's reason.
    package func unprepared() -> DatabaseFailure? {
        if FileSystem.isDirectory(path, mode: 0o700) { return nil }
        guard FileSystem.makeDirectory(path, mode: 0o700) else {
            return DatabaseFailure(.creatingDirectory(path), kind: .denied, reason: String(cString: strerror(errno)))
        }
        guard FileSystem.restrict(path, mode: 0o700) else {
            return DatabaseFailure(.securingDirectory(path), kind: .denied, reason: String(cString: strerror(errno)))
        }
        return nil
    }

    /// A file in the directory.
    public func file(_ name: String) -> String {
        path + "/" + name
    }
}
