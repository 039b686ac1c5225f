import Foundation

/// The tests' own Python virtual environment with the PyPI packages `mcp-server-time` (a real
/// MCP server no one here wrote) and `mcp` (its SDK, for servers a test writes):
/// `CHAT_TEST_MCP_VENV` if set, else `.build/mcp-test-venv` in the package, made (`python3 -m
/// venv`, `pip install mcp-server-time mcp`) the first time it is missing either (the SDK with
/// uvicorn, for the Streamable HTTP servers written with it: `PythonMCPServer`).
public enum MCPTestVenv {
    /// The environment's directory, or why it could not be made.
    public static let directory: Result<String, MCPTestVenvFailure> = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let venv =
            ProcessInfo.processInfo.environment["CHAT_TEST_MCP_VENV"]
            ?? root.appendingPathComponent(".build/mcp-test-venv").path
        let ready = [venv + "/bin/python3", "-c", "import mcp.server, uvicorn, mcp_server_time"]
        if FileManager.default.isExecutableFile(atPath: venv + "/bin/mcp-server-time"), run(ready, quiet: true) == 0 {
            return .success(venv)
        }
        for step in [["python3", "-m", "venv", venv], [venv + "/bin/pip", "install", "-q", "mcp-server-time", "mcp"]] {
            guard let status = run(step) else { return .failure(MCPTestVenvFailure("could not run \(step[0])")) }
            guard status == 0 else {
                return .failure(MCPTestVenvFailure("\(step.joined(separator: " ")) failed (\(status))"))
            }
        }
        return .success(venv)
    }()

    /// The exit status of `arguments` run through `env` (its stderr dropped when `quiet`); nil
    /// if it could not start.
    private static func run(_ arguments: [String], quiet: Bool = false) -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        if quiet { process.standardError = FileHandle.nullDevice }
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// `mcp-server-time`'s path.
    public static var timeServer: Result<String, MCPTestVenvFailure> { directory.map { $0 + "/bin/mcp-server-time" } }
}

/// Why the tests' virtual environment could not be made.
public struct MCPTestVenvFailure: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
