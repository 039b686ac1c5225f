import ChatDomain

/// `/schema [SCHEMA|off]`: show the schema answers must match, set one (a JSON Schema file,
/// inline JSON, or fields like `name, age int`), or clear it.
struct SchemaCommand: SlashCommand {
    let names = ["schema"]
    let usage = "/schema [SCHEMA|off]"
    let summary = "answers must be JSON matching SCHEMA (a file, JSON, or 'name, age int'); off clears it"

    func completions(for argument: String, in context: CompletionContext) -> [String] {
        let word = CompletionContext.lastWord(of: argument)
        return (!word.isEmpty && "off".hasPrefix(word) && argument == word ? ["off"] : [])
            + context.source.paths(completing: word)
    }

    func run(_ argument: String?, in context: REPLContext) async -> SlashCommandResult {
        guard let argument else {
            guard let schema = context.conversation.settings.responseSchema else {
                context.say("(answers in any form)\n")
                return .proceed
            }
            context.say(Self.describe(schema) + "\n")
            return .proceed
        }
        if argument == "off" {
            context.conversation.settings.responseSchema = nil
            context.note("answers in any form again")
            return .proceed
        }
        guard let checker = context.parts.schemaChecker else {
            context.failure("schemas cannot be read here")
            return .proceed
        }
        do throws(SchemaProblem) {
            let schema = try checker.schema(argument)
            context.conversation.settings.responseSchema = schema
            context.note("answers must be JSON: " + Self.describe(schema))
        } catch {
            context.failure(ErrorWording.line(for: error, from: "/schema"))
        }
        return .proceed
    }

    /// `an object with name, age, bio`.
    static func describe(_ schema: ResponseSchema) -> String {
        let fields = schema.schema["properties"]?.object?.keys.sorted() ?? []
        let kind = schema.schema["type"]?.string ?? "value"
        return fields.isEmpty ? "a JSON \(kind)" : "an \(kind) with " + fields.joined(separator: ", ")
    }
}
