/// A question a tool server asks the person while it handles a request (MCP elicitation): a form
/// of fields to fill in, or a web page to open. Everything in it is the server's, as it sent it:
/// data, made safe where it is shown.
public struct ServerQuestion: Sendable, Equatable {
    /// What the server asks for.
    public enum Kind: Sendable, Equatable {
        /// Fields to fill in, in the order the server gave them.
        case form([ServerQuestionField])
        /// A page to open in the browser (the answer is only the person's consent).
        case url(String)
    }

    /// The server's name in the config.
    public var server: String
    /// The server's words: why it asks.
    public var message: String
    /// A form or a page.
    public var kind: Kind

    /// The question `message` of `server`.
    public init(server: String, message: String, kind: Kind) {
        self.server = server
        self.message = message
        self.kind = kind
    }
}
