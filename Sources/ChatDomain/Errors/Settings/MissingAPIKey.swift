/// A server that needs an API key, and none for it.
public struct MissingAPIKey: Sendable, Equatable {
    /// The base URL the request would go to.
    public var url: String
    /// The configured key that stays with its own server, when a flag moved the request away.
    public var keptKey: KeptKey?
    /// The command that starts a local model, which needs no key.
    public var localModelCommand: String
    /// The environment variable whose key the request would carry (the provider's: the Data
    /// layer names it).
    public var keyVariable: String

    /// The facts.
    public init(url: String, keptKey: KeptKey?, localModelCommand: String, keyVariable: String) {
        self.url = url
        self.keptKey = keptKey
        self.localModelCommand = localModelCommand
        self.keyVariable = keyVariable
    }
}
