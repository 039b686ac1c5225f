import ChatDomain

extension MCPServerEntry {
    /// The servers of a config's `mcp_servers` value, in name order, in the shape Claude
    /// Desktop, Cursor and oterm configs use: `{"name": {"command": …, "args": […], "env": {…},
    /// "timeout": seconds}}` for a child process, `{"name": {"url": …, "headers": {…},
    /// "timeout": seconds}}` for Streamable HTTP; `"protocol_version"` pins either's MCP version
    /// (one chat speaks). `${VAR}` in the command, an argument, an env
    /// value, the url or a header value is the variable's value from `environment`. A server
    /// that cannot be used (neither command nor url, a variable not set, a value of the wrong
    /// type) is left out, its problem naming it; a value never appears in one.
    static func entries(in value: JSONValue, environment: [String: String])
        -> (entries: [MCPServerEntry], problems: [ToolServerProblem])
    {
        guard let servers = value.object else {
            return ([], [ToolServerProblem(server: "", step: .reading, failure: .entry(.serversNotAnObject))])
        }
        var entries: [MCPServerEntry] = []
        var problems: [ToolServerProblem] = []
        for name in servers.keys.sorted() {
            switch entry(name, servers[name] ?? .null, environment: environment) {
            case .success(let entry): entries.append(entry)
            case .failure(let problem):
                problems.append(ToolServerProblem(server: name, step: .reading, failure: .entry(problem)))
            }
        }
        return (entries, problems)
    }

    private static func entry(_ name: String, _ value: JSONValue, environment: [String: String])
        -> Result<MCPServerEntry, ToolServerEntryProblem>
    {
        guard value.isObject else { return .failure(.notAnObject) }
        var pinned: String?
        if let version = value["protocol_version"] {
            guard let text = version.string, MCPEra(version: text) != nil else {
                return .failure(.protocolVersion(known: MCPEra.modernVersions + MCPEra.legacyVersions))
            }
            pinned = text
        }
        let read =
            value["url"] != nil
            ? httpEntry(name, value, environment: environment) : stdioEntry(name, value, environment: environment)
        return read.map { entry in
            var entry = entry
            entry.protocolVersion = pinned
            return entry
        }
    }

    /// A stdio server's entry: `command`, `args` (a list of strings), `env` (an object of
    /// strings) and `timeout`.
    private static func stdioEntry(_ name: String, _ value: JSONValue, environment: [String: String])
        -> Result<MCPServerEntry, ToolServerEntryProblem>
    {
        guard let command = value["command"]?.string, !command.isEmpty else { return .failure(.noCommand) }
        let arguments = value["args"].map { $0.array?.compactMap(\.string) }
        guard let arguments = arguments ?? [], arguments.count == (value["args"]?.array?.count ?? 0) else {
            return .failure(.notAListOfStrings(key: "args"))
        }
        var variables: [String: String] = [:]
        if let env = value["env"] {
            guard let object = env.object else { return .failure(.notAnObjectOfStrings(key: "env")) }
            for (key, item) in object {
                guard let text = item.string else { return .failure(.notAnObjectOfStrings(key: "env")) }
                variables[key] = text
            }
        }
        var entry = MCPServerEntry(name: name, command: command, arguments: arguments, environment: variables)
        if let timeout = value["timeout"] {
            guard let seconds = timeout.number, seconds > 0 else { return .failure(.timeout) }
            entry.callTimeout = seconds
        }
        do throws(ToolServerEntryProblem) {
            entry.command = try expand(entry.command, environment)
            entry.arguments = try entry.arguments.map { argument throws(ToolServerEntryProblem) in
                try expand(argument, environment)
            }
            for (key, text) in entry.environment { entry.environment[key] = try expand(text, environment) }
        } catch {
            return .failure(error)
        }
        return .success(entry)
    }

    /// The tools `auto_approve` in each server's entry runs without asking: `true` for all of
    /// them, or a list of the server's tool names. Another value is a problem naming the server.
    package static func approvals(in value: JSONValue) -> (
        approvals: [String: ToolApproval], problems: [ToolServerProblem]
    ) {
        var approvals: [String: ToolApproval] = [:]
        var problems: [ToolServerProblem] = []
        for (name, entry) in (value.object ?? [:]).sorted(by: { $0.key < $1.key }) {
            switch entry["auto_approve"] {
            case nil, .bool(false)?: continue
            case .bool(true)?: approvals[name] = .all
            case .array(let items)? where items.allSatisfy({ $0.string != nil }):
                approvals[name] = .tools(Set(items.compactMap(\.string)))
            default:
                problems.append(ToolServerProblem(server: name, step: .reading, failure: .entry(.autoApprove)))
            }
        }
        return (approvals, problems)
    }

    /// A Streamable HTTP server's entry: `url` (http or https), `headers` (an object of strings)
    /// and `timeout`.
    private static func httpEntry(_ name: String, _ value: JSONValue, environment: [String: String])
        -> Result<MCPServerEntry, ToolServerEntryProblem>
    {
        if value["command"] != nil { return .failure(.commandAndURL) }
        guard let url = value["url"]?.string, !url.isEmpty else { return .failure(.urlNotAString) }
        var entry = MCPServerEntry(name: name, url: url)
        if let headers = value["headers"] {
            guard let object = headers.object else { return .failure(.notAnObjectOfStrings(key: "headers")) }
            for (key, item) in object {
                guard let text = item.string, !key.isEmpty else {
                    return .failure(.notAnObjectOfStrings(key: "headers"))
                }
                entry.headers[key] = text
            }
        }
        if let timeout = value["timeout"] {
            guard let seconds = timeout.number, seconds > 0 else { return .failure(.timeout) }
            entry.callTimeout = seconds
        }
        do throws(ToolServerEntryProblem) {
            let expanded = try expand(url, environment)
            entry.url = expanded
            for (key, text) in entry.headers { entry.headers[key] = try expand(text, environment) }
            try entry.readSignIn(value, environment)
        } catch {
            return .failure(error)
        }
        let scheme = entry.url?.prefix { $0 != ":" }.lowercased()
        guard scheme == "http" || scheme == "https", entry.url?.contains("://") == true else {
            return .failure(.urlScheme)
        }
        // A header value must stay one field: a line break in it would add fields of its own.
        guard
            entry.headers.allSatisfy({ !$0.key.contains(where: \.isNewline) && !$0.value.contains(where: \.isNewline) })
        else {
            return .failure(.headerLineBreak)
        }
        return .success(entry)
    }

    /// `text` with each `${NAME}` replaced by the variable's value; a variable not set is an
    /// error naming it.
    static func expand(_ text: String, _ environment: [String: String]) throws(ToolServerEntryProblem) -> String {
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
                throw .variableNotSet(name)
            }
            result += value
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }
}
