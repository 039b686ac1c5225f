import ChatDomain

/// Where and how to reach a server, whichever provider's API it speaks.
public struct ServerConfiguration: Sendable {
    /// The API root, e.g. `https://api.openai.com/v1`, without a trailing slash.
    public var baseURL: String
    /// Whose API the server speaks.
    public var provider: ProviderKind
    /// Sent as `keyPlacement` says; nil (or empty) sends none. Never printed.
    public var apiKey: String?
    /// How the key is sent: `Authorization: Bearer …` unless the server wants a header of its own.
    public var keyPlacement: APIKeyPlacement
    /// Extra header fields for every request (e.g. Azure's `api-key`).
    public var headers: [(name: String, value: String)]
    /// Seconds to wait for a connection.
    public var connectTimeout: Double
    /// Seconds without a byte before giving up.
    public var idleTimeout: Double
    /// A proxy to use instead of the environment's.
    public var proxy: String?
    /// The proxy requests will go through, whichever way it was set, as `URL (from SOURCE)`,
    /// to name it when it fails; nil when there is none.
    public var proxyInUse: String?
    /// When to send a failed request again.
    public var retry: RetryPolicy
    /// The certificates the connection trusts and shows.
    public var tls: TLSConfiguration
    /// The thinking budget in tokens to ask for (`--thinking`, `thinking_budget`), with a
    /// provider that takes one (Anthropic); nil asks for none.
    public var thinkingBudget: Int?
    /// Whether to ask the server to cache the prompt (`cache`), with a provider that is asked
    /// (Anthropic: the system prompt and the last user turn are marked).
    public var promptCaching = false
    /// How to ask an Anthropic model to think (`thinking_form`), when the profile says; nil: as
    /// the provider's table of models says.
    public var thinkingForm: ThinkingForm?
    /// Whether the person sees the model's reasoning (`show_reasoning`, `/reasoning`), read as
    /// each request is made: a provider that can be told not to send it is told.
    public var reasoning = ReasoningSwitch(shown: true)
    /// Whether the model takes images (`images`): if not, every image (a person's, a tool's)
    /// goes to it as a note saying it was not sent.
    public var takesImages = true
    /// Whether the model may search the web on the server (`web_search`, `--web`, `/web`), read
    /// as each request is made; only a provider whose API has a search tool offers it.
    public var webSearch = WebSearchSwitch(on: false)
    /// The most searches one answer may run where the API takes a limit (`web_search_max_uses`).
    public var webSearchMaxUses = 5
    /// Receives request and response diagnostics (`--verbose`), secrets already redacted.
    public var diagnostics: (@Sendable (String) -> Void)?

    /// Creates a configuration; a trailing slash on `baseURL` is dropped.
    public init(
        baseURL: String,
        provider: ProviderKind = .openAI,
        apiKey: String? = nil,
        keyPlacement: APIKeyPlacement = .bearer,
        headers: [(name: String, value: String)] = [],
        connectTimeout: Double = 10,
        idleTimeout: Double = 60,
        proxy: String? = nil,
        proxyInUse: String? = nil,
        retry: RetryPolicy = RetryPolicy(),
        tls: TLSConfiguration = TLSConfiguration(),
        diagnostics: (@Sendable (String) -> Void)? = nil
    ) {
        var url = baseURL
        while url.hasSuffix("/") { url.removeLast() }
        self.baseURL = url
        self.provider = provider
        self.apiKey = apiKey
        self.keyPlacement = keyPlacement
        self.headers = headers
        self.connectTimeout = connectTimeout
        self.idleTimeout = idleTimeout
        self.proxy = proxy
        self.proxyInUse = proxyInUse
        self.retry = retry
        self.tls = tls
        self.diagnostics = diagnostics
    }
}
