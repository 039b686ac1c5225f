import ChatDomain

/// One page of a server's model list, as a provider reads it.
package struct ModelPage: Sendable, Equatable {
    /// The models on this page, in the server's order.
    package var models: [ModelInfo]
    /// What names the next page (`ChatProvider.modelsRequest(after:)`); nil on the last page.
    package var nextCursor: String?

    /// A page of `models`, and what names the next one.
    package init(models: [ModelInfo], nextCursor: String? = nil) {
        self.models = models
        self.nextCursor = nextCursor
    }
}
