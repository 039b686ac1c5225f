/// A configured API key that stays with the server it was configured for: `--base-url` moved the
/// request to another origin.
public struct KeptKey: Sendable, Equatable {
    /// Whose key it is.
    public enum Owner: Sendable, Equatable {
        /// The top level of the config file at `path`.
        case topLevel(path: String)
        /// The profile of that name.
        case profile(String)
    }

    /// Whose key it is.
    public var owner: Owner
    /// The origin it is sent to (its home).
    public var homeOrigin: String
    /// The origin the request goes to.
    public var requestOrigin: String
    /// The environment variable whose key the request may carry instead (the provider's: the
    /// Data layer names it).
    public var keyVariable: String

    /// The facts.
    public init(owner: Owner, homeOrigin: String, requestOrigin: String, keyVariable: String) {
        self.owner = owner
        self.homeOrigin = homeOrigin
        self.requestOrigin = requestOrigin
        self.keyVariable = keyVariable
    }
}
