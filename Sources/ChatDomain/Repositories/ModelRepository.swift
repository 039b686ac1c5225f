/// The models a server offers, from wherever they are known: the role the Data layer's model
/// list plays. Callers never learn whether an answer came from the server or from a copy kept
/// of an earlier one.
public protocol ModelRepository: Sendable {
    /// The models, in the order the server gave them.
    func models() async -> Result<[ModelInfo], ChatError>
}
