import ChatDomain

extension RequestRunner {
    /// The most pages of models read before the list is taken as complete.
    static var maxModelPages: Int { 100 }

    /// The server's models, every page of them, in the server's order.
    package func listModels() async -> Result<[ModelInfo], ChatError> {
        var models: [ModelInfo] = []
        var cursor: String?
        var seen: Set<String> = []
        for _ in 0..<Self.maxModelPages {
            let request = provider.modelsRequest(after: cursor)
            let body: [UInt8]
            switch await fetch(request) {
            case .success(let bytes): body = bytes
            case .failure(let error): return .failure(error)
            }
            guard let page = provider.modelPage(in: body) else {
                return .failure(.malformedResponse("GET \(url(for: request)) did not answer with a model list"))
            }
            models += page.models
            // A server that names a page it sent already would go round for ever.
            guard let next = page.nextCursor, seen.insert(next).inserted else { break }
            cursor = next
        }
        return .success(models)
    }
}
