/// Who answers a tool server's questions (MCP elicitation): the person on the terminal, or, with
/// no one to ask, a refusal that says so.
public protocol ServerQuestionAnswerer: Sendable {
    /// The answer to `question`; a question that cannot be put to anyone is declined.
    func answer(_ question: ServerQuestion) async -> ServerAnswer
}
