/// What Tab offers that lives outside the REPL: the server's models, the stored conversations,
/// the files on disk. Called on the line editor's thread, which may wait (never on Swift's
/// pool); an answer that cannot be had soon is empty.
public protocol CompletionSource: Sendable {
    /// The names of the models the server offers.
    func modelNames() -> [String]
    /// The stored conversations that have an answer, most recently used first.
    func conversations() -> [(id: String, title: String)]
    /// The paths that begin with `prefix`, as typed (`~/` kept); directories end in `/`.
    func paths(completing prefix: String) -> [String]
    /// The prompts of the MCP servers that are on, as `SERVER.NAME`.
    func toolPromptNames() -> [String]
}

extension CompletionSource {
    /// No prompts, where there are no tool servers.
    public func toolPromptNames() -> [String] { [] }
}

/// A source that offers nothing: tests, and a REPL reading from a pipe.
public struct NoCompletionSource: CompletionSource {
    /// Creates the empty source.
    public init() {}

    public func modelNames() -> [String] { [] }
    public func conversations() -> [(id: String, title: String)] { [] }
    public func paths(completing prefix: String) -> [String] { [] }
}
