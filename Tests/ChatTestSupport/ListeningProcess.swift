import Foundation

/// A server a test starts that says the ports it listens on as the first line of its output,
/// once it listens.
enum ListeningProcess {
    /// Runs `executable` with `arguments` (its output read, its errors dropped) and returns it
    /// with the `count` numbers of its first line. When that line does not hold them, the process
    /// is killed and `MCPTestVenvFailure(failure)` thrown. SIGKILL: a child of Foundation's
    /// `Process` inherits the test thread's blocked signals, so it might never see a SIGTERM.
    static func start(_ executable: String, _ arguments: [String], ports count: Int, failure: String) throws
        -> (Process, [Int])
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line: [UInt8] = []
        while !line.contains(0x0A) {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            line += data
        }
        let ports = String(decoding: line, as: UTF8.self).split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard ports.count == count else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw MCPTestVenvFailure(failure)
        }
        return (process, ports)
    }
}
