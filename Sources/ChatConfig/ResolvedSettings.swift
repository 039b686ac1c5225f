import ChatCatalogue
import ChatDomain
import ChatHTTP
import ChatMCP

/// Every setting, decided: what the composition root wires the program from.
public struct ResolvedSettings: Sendable {
    /// The server to talk to, with its key.
    public var server: ServerConfiguration
    /// What a conversation is sent with: model, sampling, streaming, the context limit.
    public var chat: ChatSettings
    /// The system prompt, if any.
    public var systemPrompt: String?
    /// The profile in use, if any.
    public var profile: String?
    /// Whether conversations are stored in the history.
    public var history: Bool
    /// What the command line itself set of `chat`: the model `""` and nil values where no flag
    /// gave one (`stream` is false only with `--no-stream`).
    public var given: ChatSettings
    /// The system prompt the command line gave (`-s`), if it gave one.
    public var givenSystemPrompt: String?
    /// Things worth warning the person of on stderr, e.g. a config file others can read.
    public var warnings: [SettingsNote]
    /// The most bytes of text the files attached to one message may hold.
    public var maxFileBytes: Int
    /// The role chosen (`-r`), its placeholders other than `{{input}}` not filled yet.
    public var role: PromptRole?
    /// Every role there is, built in or configured, by name.
    public var roles: [PromptRole]
    /// Things the person should know about how the settings were decided, e.g. a configured
    /// key kept from a server `--base-url` chose.
    public var notes: [SettingsNote] = []
    /// When answers are rendered as Markdown.
    public var render = RenderMode.auto
    /// How an attached PDF goes to the model (`pdf`).
    public var pdf = PDFHandling.native
    /// The most the run may spend, in US dollars (`max_cost`); nil: no limit.
    public var maxCost: Double?
    /// What models cost: the config's `prices`, then chat's own table.
    public var prices = PriceBook(PriceTable.entries)
    /// The profiles an answer goes to when the server fails it (`fallback`), in order.
    public var fallback: [String] = []
    /// The context windows of models, from chat's own table (`max_context_tokens` comes first).
    public var windows = ContextWindows(WindowTable.entries)
    /// The MCP servers whose tools the run offers, and how their calls run.
    public var tools = ToolSettings()

    /// Nothing decided yet: what the settings table's values are stored into.
    static var blank: ResolvedSettings {
        ResolvedSettings(
            server: ServerConfiguration(baseURL: ""), chat: ChatSettings(model: ""), systemPrompt: nil, profile: nil,
            history: true, given: ChatSettings(model: ""), givenSystemPrompt: nil, warnings: [],
            maxFileBytes: 1_048_576,
            role: nil, roles: [])
    }
}
