import ChatDomain

/// `/role [NAME]`: show the role and the roles there are, or take role NAME: its system prompt
/// and settings from now on (a template role's prompt takes the next message).
struct RoleCommand: SlashCommand {
    let names = ["role"]
    let usage = "/role [NAME]"
    let summary = "show the roles, or take role NAME (its prompt and settings)"

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        let word = CompletionContext.lastWord(of: argument)
        return context.roleNames.filter { $0.hasPrefix(word) }
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        let roles = context.parts.roles
        guard let name = argument else {
            context.say("role: \(context.role?.name ?? "(none)")\n")
            context.say("roles: \(roles.map(\.name).joined(separator: ", "))\n")
            return .proceed
        }
        guard let role = roles.first(where: { $0.name == name }) else {
            context.failure("no role named \(name); /role lists them")
            return .proceed
        }
        context.conversation = role.apply(to: context.conversation)
        context.role = role
        context.pendingTemplate = role.isTemplate ? role : nil
        var note = "role \(role.name): "
        note += role.isTemplate ? "the next message goes into its prompt" : "its system prompt is set"
        if !role.settings.model.isEmpty { note += "; model \(role.settings.model)" }
        // The role the run started with has them already.
        if !role.setsForTheRun.isEmpty && context.parts.role?.name != role.name {
            note += "; what it sets for a whole run applies from the start only (chat -r \(role.name)): "
            note += role.setsForTheRun.joined(separator: ", ")
        }
        context.note(note)
        return .proceed
    }
}
