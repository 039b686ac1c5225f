/// A model a server offers.
public struct ModelInfo: Sendable, Equatable {
    /// The name to put in requests.
    public var id: String
    /// Who owns it, when the server says.
    public var ownedBy: String?

    /// Creates a model entry.
    public init(id: String, ownedBy: String? = nil) {
        self.id = id
        self.ownedBy = ownedBy
    }
}
