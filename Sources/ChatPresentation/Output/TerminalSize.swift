#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The width of the terminal behind a file descriptor, asked of the terminal each time (one
/// `ioctl`), so a resize is seen at once.
public enum TerminalSize {
    /// The columns of the terminal on `fd`, or nil when it is not a terminal.
    public static func columns(fd: Int32) -> Int? {
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}
