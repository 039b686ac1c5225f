import ChatDomain
import ChatSystem
import Synchronization

/// The lists a server gave (`tools/list`, `prompts/list`, `resources/list`,
/// `resources/templates/list`), each kept while it is fresh: in the legacy era, or while chat
/// listens to the server's changes, until the server says that list changed; else for the
/// `ttlMs` the modern server gave it (0, or none: not kept at all).
final class MCPListCache: Sendable {
    private struct Kept {
        var items: [JSONValue]
        /// When it is no longer fresh, in monotonic nanoseconds; nil: until the server says.
        var staleAt: UInt64?
    }

    private let lists = Mutex<[String: Kept]>([:])

    /// The items of list `method`, while fresh.
    func fresh(_ method: String) -> [JSONValue]? {
        let now = MonotonicClock.nanoseconds()
        return lists.withLock { lists in
            guard let kept = lists[method] else { return nil }
            if let staleAt = kept.staleAt, now >= staleAt {
                lists[method] = nil
                return nil
            }
            return kept.items
        }
    }

    /// Keeps `items` of list `method` for `ttl` milliseconds (nil: until the server says it
    /// changed); a ttl of 0 or less keeps nothing.
    func keep(_ method: String, items: [JSONValue], ttl: Double?) {
        if let ttl, ttl <= 0 || !ttl.isFinite {
            lists.withLock { $0[method] = nil }
            return
        }
        let staleAt = ttl.map { MonotonicClock.nanoseconds() + UInt64(min($0, 86_400_000) * 1_000_000) }
        lists.withLock { $0[method] = Kept(items: items, staleAt: staleAt) }
    }

    /// The server said `notification` (`notifications/tools/list_changed`…): its list is stale.
    func changed(_ notification: String) {
        let methods: [String]
        switch notification {
        case "notifications/tools/list_changed": methods = ["tools/list"]
        case "notifications/prompts/list_changed": methods = ["prompts/list"]
        case "notifications/resources/list_changed": methods = ["resources/list", "resources/templates/list"]
        default: methods = []
        }
        lists.withLock { lists in
            for method in methods { lists[method] = nil }
        }
    }

    /// Forgets every list (the subscription that kept them fresh ended).
    func forgetAll() {
        lists.withLock { $0 = [:] }
    }
}
