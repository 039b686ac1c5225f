import Foundation
import Glibc

/// The MCP servers the tests run from Tests/MCPServers, with the venv's Python
/// (`MCPTestVenv`): `modern_only.py` (the tests' own, 2026-07-28 only), `sdk_features.py`
/// (written with the `mcp` SDK) and `fastmcp_features.py` (written with `fastmcp`), both of which
/// serve both eras.
public enum MCPTestServers {
    /// Tests/MCPServers.
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("MCPServers").path

    /// The path of script `name` (`sdk_features.py`).
    public static func script(_ name: String) -> String {
        directory + "/" + name
    }

    /// The venv's Python.
    public static var python: Result<String, MCPTestVenvFailure> { MCPTestVenv.directory.map { $0 + "/bin/python3" } }

    /// `mcp-server-git`'s path.
    public static var gitServer: Result<String, MCPTestVenvFailure> {
        MCPTestVenv.directory.map { $0 + "/bin/mcp-server-git" }
    }

    /// A fresh path for a log in the temporary directory.
    public static func logPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("chat-mcp-\(UUID().uuidString).log").path
    }
}

/// An MCP server run over HTTP from a script of Tests/MCPServers on 127.0.0.1: the script prints
/// its ephemeral port first, then serves `/mcp`. Stopped with SIGKILL (a child of Foundation's
/// `Process` inherits the test thread's blocked signals, so it would never see a SIGTERM).
public final class ScriptMCPServer: Sendable {
    private let process: Process
    /// Its port on 127.0.0.1.
    public let port: Int

    /// Starts one off the test pool (its start reads the server's first line, a second or more).
    public static func start(_ script: String, arguments: [String]) async throws -> ScriptMCPServer {
        try await OffThePool.run { try ScriptMCPServer(script, arguments: arguments) }
    }

    /// Runs `script` (a name in Tests/MCPServers) with `arguments`.
    public init(_ script: String, arguments: [String]) throws {
        let (process, ports) = try ListeningProcess.start(
            try MCPTestServers.python.get(), [MCPTestServers.script(script)] + arguments, ports: 1,
            failure: "\(script) did not start")
        self.process = process
        port = ports[0]
    }

    /// Its endpoint.
    public var url: String { "http://127.0.0.1:\(port)/mcp" }

    public func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// The requests `modern_only.py` logged, a JSON object each.
public func modernOnlyLog(_ path: String) -> [[String: Any]] {
    let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
    return text.split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
}
