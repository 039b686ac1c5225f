/// What the person answered a server's question.
public enum ServerAnswer: Sendable, Equatable {
    /// They answered: the form's values by field name (none for a page: consent only).
    case accept([String: JSONValue])
    /// They said no.
    case decline
    /// They stopped without choosing.
    case cancel
}
