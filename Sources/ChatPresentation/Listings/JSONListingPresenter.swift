import ChatDomain

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The listings as JSON lines (`--json` with `--list`, `--search`, `--models`, `--list-roles`):
/// one object a line for each conversation, model or role, in the order the plain listing
/// shows them; nothing for an empty list. Documented in docs/scripting.md.
public struct JSONListingPresenter {
    private let lines: JSONLines

    /// Writes to `lines`.
    public init(lines: JSONLines) {
        self.lines = lines
    }

    /// Each conversation: its id, title, model, when it began and was last used (ISO 8601, UTC),
    /// its turns; where it branched from; a search's snippet and the words it matched.
    public func conversations(_ summaries: [ConversationSummary]) {
        for summary in summaries {
            var members: [String: JSONValue] = [
                "id": .string(summary.id), "title": .string(summary.title), "model": .string(summary.model),
                "created_at": .string(Self.timestamp(summary.createdAt)),
                "updated_at": .string(Self.timestamp(summary.updatedAt)), "turns": .number(summary.turns),
            ]
            if let origin = summary.branchedFrom {
                members["branched_from"] = .object([
                    "conversation": .string(origin.conversationID), "turn": .number(origin.turn),
                ])
            }
            if let snippet = summary.snippet {
                members["snippet"] = .string(snippet.text)
                members["matches"] = .array(snippet.parts.filter(\.isMatch).map { .string($0.text) })
            }
            guard lines.write(members) else { return }
        }
    }

    /// Each model, sorted by name: its id, its owner (null when the server did not say), and
    /// whether it is the one in use.
    public func models(_ models: [ModelInfo], current: String) {
        for model in models.sorted(by: { $0.id < $1.id }) {
            let members: [String: JSONValue] = [
                "id": .string(model.id), "owned_by": .string(model.ownedBy), "current": .bool(model.id == current),
            ]
            guard lines.write(members) else { return }
        }
    }

    /// Each role: its name, its whole prompt, whether it is built in and a template for the
    /// message (`{{input}}`), the model it sets (null for none) and the sampling values it sets,
    /// each named as the config names it (`samplingKeys`).
    public func roles(_ roles: [PromptRole], samplingKeys: [SamplingParameter: String]) {
        for role in roles {
            var sampling: [String: JSONValue] = [:]
            for parameter in SamplingParameter.allCases {
                guard let value = role.settings.sampling[parameter] else { continue }
                sampling[samplingKeys[parameter] ?? "\(parameter)"] =
                    value.effort.map { .string($0.rawValue) } ?? .number(value.number ?? 0)
            }
            let members: [String: JSONValue] = [
                "name": .string(role.name), "prompt": .string(role.prompt), "built_in": .bool(role.isBuiltIn),
                "template": .bool(role.isTemplate),
                "model": .string(role.settings.model.isEmpty ? nil : role.settings.model),
                "sampling": .object(sampling),
            ]
            guard lines.write(members) else { return }
        }
    }

    /// `2026-11-21T23:40:05Z`.
    static func timestamp(_ seconds: Double) -> String {
        var time = time_t(seconds.rounded(.down))
        var fields = tm()
        gmtime_r(&time, &fields)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &fields)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
