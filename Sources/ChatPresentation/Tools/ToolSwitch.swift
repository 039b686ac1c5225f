import Synchronization

/// Which of a run's MCP servers have their tools offered now: all of them at the start; the
/// REPL's `/tools on|off|SERVER` changes it, and its prompt shows it.
public final class ToolSwitch: Sendable {
    /// The servers of the run, in order.
    public let servers: [String]
    private let enabled: Mutex<Set<String>>

    public init(servers: [String]) {
        self.servers = servers
        enabled = Mutex(Set(servers))
    }

    /// The servers whose tools are offered, in order.
    public var enabledServers: [String] {
        let on = enabled.withLock { $0 }
        return servers.filter { on.contains($0) }
    }

    /// Whether `server`'s tools are offered.
    public func isOn(_ server: String) -> Bool {
        enabled.withLock { $0.contains(server) }
    }

    /// Offers every server's tools, or none.
    public func setAll(_ on: Bool) {
        let all = Set(servers)
        enabled.withLock { $0 = on ? all : [] }
    }

    /// Turns `server`'s tools on if they were off, off if on; its new state, nil when the run
    /// has no such server.
    public func toggle(_ server: String) -> Bool? {
        guard servers.contains(server) else { return nil }
        return enabled.withLock { on in
            if on.remove(server) != nil { return false }
            on.insert(server)
            return true
        }
    }
}
