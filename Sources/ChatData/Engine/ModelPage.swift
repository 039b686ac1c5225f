import ChatDomain

/// One page of a server's model list, as a provider reads it.
struct ModelPage: Sendable, Equatable {
    /// The models on this page, in the server's order.
    var models: [ModelInfo]
    /// What names the next page (`ChatProvider.modelsRequest(after:)`); nil on the last page.
    var nextCursor: String?
}
