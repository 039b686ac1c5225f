import ChatDomain

/// `/tools [on|off|SERVER|off SERVER]`: list every configured MCP server (on or off, the
/// protocol version and tools of those on), turn a configured server on (started then) or off,
/// or all of those used this run on or off.
struct ToolsCommand: SlashCommand {
    let names = ["tools"]
    let usage = "/tools [on|off|SERVER|off SERVER]"
    let summary = "list the MCP servers and their tools; turn one on (/tools SERVER) or off (/tools off SERVER)"

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        let word = CompletionContext.lastWord(of: argument)
        let words = argument.split(whereSeparator: \.isWhitespace)
        // After `off ` or `on `, a server.
        if words.count > 1 || (words.count == 1 && argument.last?.isWhitespace == true) {
            guard ["on", "off"].contains(words.first.map(String.init) ?? "") else { return [] }
            return context.toolServers.filter { $0.hasPrefix(word) }
        }
        return (["on", "off"] + context.toolServers).filter { $0.hasPrefix(word) }
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let tools = context.toolServers else { return .proceed }
        let words = (argument ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
        let first = words.first ?? ""
        if words.isEmpty {
            await list(tools, in: context)
        } else if words.count == 1, first == "on" || first == "off" {
            let on = first == "on"
            tools.switch.setAll(on)
            let now = tools.switch.enabledServers
            if on && now.isEmpty {
                context.note("no MCP server has been on yet: /tools SERVER turns one on (/tools lists them)")
            } else {
                context.note("tools: \(on ? "on (" + now.joined(separator: ", ") + ")" : "off")")
            }
        } else if words.count == 2, first == "off" {
            guard let was = tools.switch.set(words[1], on: false) else {
                unknown(words[1], tools, in: context)
                return .proceed
            }
            context.note("tools of \(words[1]): off" + (was ? "" : " already"))
        } else if words.count == 1 || (words.count == 2 && first == "on") {
            await turnOn(words[words.count - 1], tools, in: context)
        } else {
            context.failure("/tools takes nothing, on, off, a server, or off and a server; not \(argument ?? "")")
        }
        return .proceed
    }

    private func unknown(_ server: String, _ tools: REPL.Tools, in context: REPLContext) {
        context.failure(
            "no MCP server named \(ServerText.line(server, limit: 60)) in the config; its servers: "
                + tools.switch.servers.joined(separator: ", "))
    }

    /// Turns `server` on and starts it, saying what it offers; one that cannot be used is said
    /// (its problem is on stderr already) and stays off.
    private func turnOn(_ server: String, _ tools: REPL.Tools, in context: REPLContext) async {
        guard let was = tools.switch.set(server, on: true) else {
            unknown(server, tools, in: context)
            return
        }
        if was {
            context.note("tools of \(server): on already")
            return
        }
        let listed = await tools.list().filter { $0.server == server }
        let status = await tools.servers?.statuses().first { $0.server == server }
        if let status, status.failure != nil {
            tools.switch.set(server, on: false)
            context.failure("MCP server \(server) could not be used; its tools stay off (the line above says why)")
            return
        }
        var notes = [Counted.text(listed.count, "tool")]
        if let version = status?.protocolVersion ?? listed.first?.protocolVersion {
            notes.insert("MCP " + ServerText.line(version, limit: 20), at: 0)
        }
        // Many servers declare prompts or resources and have none: only those it has are named.
        if let servers = tools.servers, status?.offersPrompts == true {
            let prompts = await servers.prompts().count { $0.server == server }
            if prompts > 0 { notes.append(Counted.text(prompts, "prompt") + ": /prompts") }
        }
        if let servers = tools.servers, status?.offersResources == true {
            let resources = (try? await servers.resources(server: server).get())?.count ?? 0
            if resources > 0 { notes.append(Counted.text(resources, "resource") + ": /resources \(server)") }
        }
        context.note("tools of \(server): on (\(notes.joined(separator: ", ")))")
    }

    /// Every configured server: those on with their version and tools, those off as off; all
    /// that servers wrote made safe.
    private func list(_ tools: REPL.Tools, in context: REPLContext) async {
        let listed = await tools.list()
        let statuses = await tools.servers?.statuses() ?? []
        var versions: [String: String] = [:]
        for entry in listed { if let version = entry.protocolVersion { versions[entry.server] = version } }
        for status in statuses { if let version = status.protocolVersion { versions[status.server] = version } }
        let style = context.parts.outputStyle
        var text = ""
        for server in tools.switch.servers {
            if tools.switch.isOn(server) {
                let failed = statuses.first { $0.server == server }?.failure != nil
                text += ToolListPresenter.text(
                    servers: [server], tools: listed, style: style,
                    state: { _ in failed ? "on, could not be used" : "on" }, versions: versions)
            } else {
                text += style.bold(ServerText.line(server, limit: 60)) + style.dim(" (off: /tools \(server))") + "\n"
            }
        }
        context.say(text)
    }
}
