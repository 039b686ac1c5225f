import Synchronization

/// Which of the configured MCP servers have their tools offered now: the ones the run chose
/// (`-T`, `tools`) at the start; the REPL's `/tools SERVER`, `/tools off SERVER` and
/// `/tools on|off` change it, and its prompt shows it. A server is started only once it is on.
public final class ToolSwitch: Sendable {
    /// The servers that may be turned on (the configured ones, the run's chosen first), in order.
    public let servers: [String]
    private let state: Mutex<(on: Set<String>, used: Set<String>)>

    /// `servers`, of which `on` (by default all) are on at the start.
    public init(servers: [String], on: [String]? = nil) {
        self.servers = servers
        let first = Set(on ?? servers).intersection(servers)
        state = Mutex((first, first))
    }

    /// The servers whose tools are offered, in order.
    public var enabledServers: [String] {
        let on = state.withLock { $0.on }
        return servers.filter { on.contains($0) }
    }

    /// Whether `server`'s tools are offered.
    public func isOn(_ server: String) -> Bool {
        state.withLock { $0.on.contains(server) }
    }

    /// Offers the tools of every server that has been on this run (`on`), or of none.
    public func setAll(_ on: Bool) {
        state.withLock { $0.on = on ? $0.used : [] }
    }

    /// Turns `server` on (`on`) or off; whether it was on before, nil when there is no such server.
    @discardableResult
    public func set(_ server: String, on: Bool) -> Bool? {
        guard servers.contains(server) else { return nil }
        return state.withLock { state in
            let was = state.on.contains(server)
            if on {
                state.on.insert(server)
                state.used.insert(server)
            } else {
                state.on.remove(server)
            }
            return was
        }
    }

    /// Turns `server`'s tools on if they were off, off if on; its new state, nil when there is
    /// no such server.
    public func toggle(_ server: String) -> Bool? {
        guard let was = set(server, on: !isOn(server)) else { return nil }
        return !was
    }
}
