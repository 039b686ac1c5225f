import Foundation

/// The tests' own Python virtual environment with the PyPI packages of
/// Tests/mcp-test-requirements.txt: `mcp-server-time` (a real MCP server no one here wrote) and
/// `mcp` (its SDK, with uvicorn, for the Streamable HTTP servers written with it:
/// `PythonMCPServer`). `CHAT_TEST_MCP_VENV` if set, else `.build/mcp-test-venv` in the package,
/// made or brought up to date by scripts/mcp-test-venv (which scripts/test runs first; here it
/// returns at once then).
public enum MCPTestVenv {
    /// The environment's directory, or why it could not be made.
    public static let directory: Result<String, MCPTestVenvFailure> = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let venv =
            ProcessInfo.processInfo.environment["CHAT_TEST_MCP_VENV"]
            ?? root.appendingPathComponent(".build/mcp-test-venv").path
        let script = root.appendingPathComponent("scripts/mcp-test-venv").path
        guard let status = run([script, venv]) else { return .failure(MCPTestVenvFailure("could not run \(script)")) }
        guard status == 0 else { return .failure(MCPTestVenvFailure("\(script) \(venv) failed (\(status))")) }
        return .success(venv)
    }()

    /// The exit status of `arguments` run through `env`; nil if it could not start.
    private static func run(_ arguments: [String]) -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
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
