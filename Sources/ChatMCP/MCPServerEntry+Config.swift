import ChatDomain

extension MCPServerEntry {
    /// The servers of a config's `mcp_servers` value, in name order, in the shape Claude
    /// Desktop, Cursor and oterm configs use: `{"name": {"command": …, "args": […], "env": {…},
    /// "timeout": seconds}}` for a child process, `{"name": {"url": …, "headers": {…},
    /// "timeout": seconds}}` for Streamable HTTP. `${VAR}` in the command, an argument, an env
    /// value, the url or a header value is the variable's value from `environment`. A server
    /// that cannot be used (neither command nor url, a variable not set, a value of the wrong
    /// type) is left out with a problem line naming it; a value never appears in one.
    static func entries(in value: JSONValue, environment: [String: String])
        -> (entries: [MCPServerEntry], problems: [MCPFailure])
    {
        guard let servers = value.object else {
            return ([], [MCPFailure("mcp_servers must be an object of servers by name")])
        }
        var entries: [MCPServerEntry] = []
        var problems: [MCPFailure] = []
        for name in servers.keys.sorted() {
            switch entry(name, servers[name] ?? .null, environment: environment) {
            case .success(let entry): entries.append(entry)
            case .failure(let problem): problems.append(problem)
            }
        }
        return (entries, problems)
    }

    private static func entry(_ name: String, _ value: JSONValue, environment: [String: String])
        -> Result<MCPServerEntry, MCPFailure>
    {
        func prefixed(_ failure: MCPFailure) -> MCPFailure {
            MCPFailure("MCP server \"\(ServerText.line(name, limit: 60))\": \(failure.message)")
        }
        func problem(_ text: String) -> Result<MCPServerEntry, MCPFailure> {
            .failure(prefixed(MCPFailure(text)))
        }
        guard value.isObject else { return problem("its entry must be an object") }
        if value["url"] != nil { return httpEntry(name, value, environment: environment).mapError(prefixed) }
        guard let command = value["command"]?.string, !command.isEmpty else {
            return problem("its entry has no command")
        }
        let arguments = value["args"].map { $0.array?.compactMap(\.string) }
        guard let arguments = arguments ?? [], arguments.count == (value["args"]?.array?.count ?? 0) else {
            return problem("args must be a list of strings")
        }
        var variables: [String: String] = [:]
        if let env = value["env"] {
            guard let object = env.object else { return problem("env must be an object of strings") }
            for (key, item) in object {
                guard let text = item.string else { return problem("env must be an object of strings") }
                variables[key] = text
            }
        }
        var entry = MCPServerEntry(name: name, command: command, arguments: arguments, environment: variables)
        if let timeout = value["timeout"] {
            guard let seconds = timeout.number, seconds > 0 else {
                return problem("timeout must be a number of seconds above 0")
            }
            entry.callTimeout = seconds
        }
        do throws(MCPFailure) {
            entry.command = try expand(entry.command, environment)
            entry.arguments = try entry.arguments.map { argument throws(MCPFailure) in try expand(argument, environment)
            }
            for (key, text) in entry.environment { entry.environment[key] = try expand(text, environment) }
        } catch {
            return problem(error.message)
        }
        return .success(entry)
    }

    /// The tools `auto_approve` in each server's entry runs without asking: `true` for all of
    /// them, or a list of the server's tool names. Another value is a problem naming the server.
    package static func approvals(in value: JSONValue) -> (approvals: [String: ToolApproval], problems: [MCPFailure]) {
        var approvals: [String: ToolApproval] = [:]
        var problems: [MCPFailure] = []
        for (name, entry) in (value.object ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch entry["auto_approve"] {
            case nil, .bool(false)?: continue
            case .bool(true)?: approvals[name] = .all
            case .array(let items)? where items.allSatisfy({ $0.string != nil }):
                approvals[name] = .tools(Set(items.compactMap(\.string)))
            default:
                problems.append(
                    MCPFailure(
                        "MCP server \"\(ServerText.line(name, limit: 60))\": auto_approve must be true or a list of "
                            + "its tool names; its tools will be asked about"))
            }
        }
        return (approvals, problems)
    }

    /// A Streamable HTTP server's entry: `url` (http or https), `headers` (an object of strings)
    /// and `timeout`. The problem, if any, without the server's name.
    private static func httpEntry(_ name: String, _ value: JSONValue, environment: [String: String])
        -> Result<MCPServerEntry, MCPFailure>
    {
        if value["command"] != nil { return .failure(MCPFailure("its entry has both a command and a url")) }
        guard let url = value["url"]?.string, !url.isEmpty else { return .failure(MCPFailure("url must be a string")) }
        var entry = MCPServerEntry(name: name, url: url)
        if let headers = value["headers"] {
            guard let object = headers.object else {
                return .failure(MCPFailure("headers must be an object of strings"))
            }
            for (key, item) in object {
                guard let text = item.string, !key.isEmpty else {
                    return .failure(MCPFailure("headers must be an object of strings"))
                }
                entry.headers[key] = text
            }
        }
        if let timeout = value["timeout"] {
            guard let seconds = timeout.number, seconds > 0 else {
                return .failure(MCPFailure("timeout must be a number of seconds above 0"))
            }
            entry.callTimeout = seconds
        }
        do throws(MCPFailure) {
            let expanded = try expand(url, environment)
            entry.url = expanded
            for (key, text) in entry.headers { entry.headers[key] = try expand(text, environment) }
        } catch {
            return .failure(error)
        }
        let scheme = entry.url?.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https", entry.url?.contains("://") == true else {
            return .failure(MCPFailure("url must start with http:// or https://"))
        }
        // A header value must stay one field: a line break in it would add fields of its own.
        guard
            entry.headers.allSatisfy({ !$0.key.contains(where: \.isNewline) && !$0.value.contains(where: \.isNewline) })
        else {
            return .failure(MCPFailure("a header name or value holds a line break"))
        }
        return .success(entry)
    }

    /// `text` with each `${NAME}` replaced by the variable's value; a variable not set is an
    /// error naming it.
    static func expand(_ text: String, _ environment: [String: String]) throws(MCPFailure) -> String {
        guard text.contains("${") else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = rest.firstRange(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                result += rest[start.lowerBound...]
                return result
            }
            let name = String(rest[start.upperBound..<end])
            guard let value = environment[name] else {
                throw MCPFailure("${\(ServerText.line(name, limit: 60))} is used but not set in the environment")
            }
            result += value
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }
}
