import ChatDomain
import ChatSystem

/// What a server offers, listed page by page and kept while fresh (`MCPListCache`): tools,
/// prompts, resources and resource templates; prompts and resources asked for only of a server
/// whose capabilities declare them.
extension MCPClient {
    /// The items of list `method` (under `key` in each page), following `nextCursor` (at most 100
    /// pages); the kept ones while they are fresh.
    func list(_ method: String, key: String) async -> Result<[JSONValue], ToolServerFailure> {
        if let kept = lists.fresh(method) { return .success(kept) }
        var items: [JSONValue] = []
        var cursor: String?
        var ttl: Double?
        for _ in 0..<100 {
            let params: [String: JSONValue] = cursor.map { ["cursor": .string($0)] } ?? [:]
            switch await send(method, params: params, safe: true) {
            case .failure(let error):
                return .failure(error.failure)
            case .success(let page):
                if let failure = Self.complete(page) { return .failure(failure) }
                items += page[key]?.array ?? []
                // The list is as fresh as its stalest page; absent in the modern era: 0.
                if era.isModern { ttl = min(ttl ?? .infinity, page["ttlMs"]?.number ?? 0) }
                guard let next = page["nextCursor"]?.string, !next.isEmpty else {
                    keep(method, items, ttl: ttl)
                    return .success(items)
                }
                cursor = next
            }
        }
        return .success(items)
    }

    /// Keeps list `method`: a legacy server's, or one chat hears the changes of, until it says it
    /// changed; else for its `ttl`.
    private func keep(_ method: String, _ items: [JSONValue], ttl: Double?) {
        let listening = state.withLock { $0.listening != nil }
        lists.keep(method, items: items, ttl: era.isModern && !listening ? (ttl ?? 0) : nil)
    }

    /// What the server declares it offers; asked (`server/discover`) when not known yet.
    func knownCapabilities() async -> JSONValue {
        if let known = capabilities { return known }
        guard era.isModern, case .success(let answer) = await send("server/discover", safe: true) else {
            return .object([:])
        }
        let capabilities = answer["capabilities"] ?? .object([:])
        state.withLock { $0.capabilities = capabilities }
        return capabilities
    }

    /// Whether the server declares `capability` (`prompts`, `resources`).
    func offers(_ capability: String) async -> Bool {
        await knownCapabilities()[capability]?.isObject == true
    }

    /// Listens to the server's list changes (`subscriptions/listen`) when it is of the modern era
    /// and declares `listChanged` for any of its lists; the changes then keep the lists fresh
    /// instead of their `ttlMs`. The subscription lasts until `stopListening` or its stream ends.
    func listen() {
        guard era.isModern, let capabilities else { return }
        var filter: [String: JSONValue] = [:]
        for (capability, name) in [
            ("tools", "toolsListChanged"), ("prompts", "promptsListChanged"), ("resources", "resourcesListChanged"),
        ] where capabilities[capability]?["listChanged"]?.bool == true {
            filter[name] = .bool(true)
        }
        guard !filter.isEmpty else { return }
        let notifications = JSONValue.object(filter)
        state.withLock { current in
            // Once a run: a server that refuses, or ends, the subscription has its lists kept for
            // their ttlMs instead.
            guard !current.listened else { return }
            current.listened = true
            current.listening = Task { [self] in
                _ = await send(
                    "subscriptions/listen", params: ["notifications": notifications], timeout: .infinity, safe: false)
                state.withLock { $0.listening = nil }
                lists.forgetAll()
            }
        }
    }
}
