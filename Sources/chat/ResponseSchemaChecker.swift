import ChatConfig
import ChatDomain
import ChatPresentation

/// The REPL's and the one-shot's `SchemaChecker`: ChatData's `ResponseSchemaReader`, which
/// parses the JSON Presentation cannot.
struct ResponseSchemaChecker: SchemaChecker {
    func schema(_ text: String) throws(SchemaProblem) -> ResponseSchema {
        try ResponseSchemaReader.schema(text)
    }

    func firstMismatch(inAnswer answer: String, against schema: ResponseSchema) -> SchemaMismatch? {
        ResponseSchemaReader.firstMismatch(inAnswer: answer, against: schema)
    }
}
