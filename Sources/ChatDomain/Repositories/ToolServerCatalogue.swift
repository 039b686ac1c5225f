/// What a run's tool servers offer besides tools, for the person (the REPL's `/tools`,
/// `/prompts`, `/resources`): how each stands, their prompts and their resources. Only the
/// servers in use are started and asked.
public protocol ToolServerCatalogue: Sendable {
    /// Each server as it stands: the protocol version spoken with it and what it offers, why it
    /// could not be used, or (not in use) its name alone.
    func statuses() async -> [ToolServerStatus]
    /// The prompts of the servers in use that offer them.
    func prompts() async -> [ToolServerPrompt]
    /// Prompt `name` of `server` with `arguments` filled in: its messages.
    func prompt(server: String, name: String, arguments: [String: String]) async
        -> Result<ToolServerPromptMessages, ToolServerFailure>
    /// The resources `server` offers.
    func resources(server: String) async -> Result<[ToolServerResource], ToolServerFailure>
    /// The resource templates `server` offers.
    func resourceTemplates(server: String) async -> Result<[ToolServerResourceTemplate], ToolServerFailure>
    /// The resource at `uri` of `server`.
    func readResource(server: String, uri: String) async -> Result<[ToolServerResourceContent], ToolServerFailure>
}
