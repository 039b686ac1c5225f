/// A problem with one of the run's tool servers (MCP), as facts: which server, what chat was
/// doing with it, and what went wrong. The run goes on without what it cost (the server's tools,
/// or one call's answer); presentation words it.
public struct ToolServerProblem: Sendable, Equatable {
    /// The server's name in the config; empty when the problem is the config's list of servers.
    public var server: String
    /// What chat was doing.
    public var step: ToolServerStep
    /// What went wrong.
    public var failure: ToolServerFailure
    /// Where the server's standard error is kept (a server chat started), to name it.
    public var log: String?
    /// The server's endpoint as it may be shown (a server reached over HTTP).
    public var endpoint: String?

    /// The problem `failure` of `server`, met while at `step`.
    public init(
        server: String, step: ToolServerStep, failure: ToolServerFailure, log: String? = nil,
        endpoint: String? = nil
    ) {
        self.server = server
        self.step = step
        self.failure = failure
        self.log = log
        self.endpoint = endpoint
    }
}

/// What chat was doing with a tool server when a problem came up.
public enum ToolServerStep: Sendable, Equatable {
    /// Reading its entry in the config.
    case reading
    /// Starting it (or reaching it) and agreeing on the protocol.
    case starting
    /// Listing its tools.
    case listing
    /// Calling its tool of this name (the server's own).
    case calling(tool: String)
}
