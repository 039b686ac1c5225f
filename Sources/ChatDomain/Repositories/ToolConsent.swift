/// Who decides whether a tool call runs (the person, on the terminal; a policy off it).
public protocol ToolConsent: Sendable {
    /// Whether `call` may run, with `tool` the tool it names: as asked, with other arguments,
    /// or not at all.
    func decide(_ call: ToolCall, tool: ToolDefinition) async -> ToolConsentDecision

    /// After `rounds` rounds of tool calls, the answer asks for tools again: whether to go on
    /// for as many rounds again.
    func continueAfter(rounds: Int) async -> Bool
}

/// What `ToolConsent.decide` says about a call.
public enum ToolConsentDecision: Sendable, Equatable {
    /// Run it as the model asked.
    case run
    /// Run it with these arguments instead (the person edited them).
    case runEdited(JSONValue)
    /// Do not run it: the model is told that the person declined.
    case decline
}
