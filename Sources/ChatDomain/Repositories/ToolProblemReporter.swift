/// Who hears of a tool server's problems as they happen: a server that cannot be used, that
/// ended, or a tool of it left out (the person, on stderr). The run goes on.
public protocol ToolProblemReporter: Sendable {
    /// Tells of `problem`, once.
    func report(_ problem: ToolServerProblem)
}
