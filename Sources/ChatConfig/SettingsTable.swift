import ChatCatalogue
import ChatDomain
import ChatHTTP

/// Every config key, once. `ConfigLevel` reads a level of the file by it, `SettingOverrides`
/// checks a flag's value by it, and `SettingsResolver` walks it: each key's value comes from the
/// first of flags, the chosen profile, its environment variable, the top level and its default
/// that sets it, and goes to its destination. The resolver's own rules then handle what a walk
/// cannot: the key sources (one per level; a key only goes to the server it was configured for),
/// headers (merged across levels), and the base URL checks. A key's command-line flag is declared
/// in its row too (`flag:`): the executable's parser, `--help`, man page and completions read it
/// from here, so a new setting with a flag is one row.
public enum SettingsTable {
    /// Every key, in the order `--help` lists the flags: the server, model and system prompt,
    /// then the sampling parameters' rows (from `SamplingTable`), then the rest.
    public static let all: [Setting] = leading + SamplingTable.all.map(\.setting) + trailing

    private static let leading: [Setting] = [
        Setting(
            "base_url", .text(nonEmptyFlag: true), environment: "OPENAI_BASE_URL",
            default: .text("https://api.openai.com/v1"), to: { $0.server.baseURL = $1 },
            flag: .value("URL", "API root"),
            about: "The API root requests go to (its `/chat/completions`, `/messages` or `/responses`, and `/models`)."),
        Setting(
            "model", .text(nonEmptyFlag: true), default: .text("gpt-4o-mini"), to: { $0.chat.model = $1 },
            flag: .value("NAME", "model to ask", short: "m"), about: "The model to ask."),
        Setting(
            "system_prompt", .text(), to: { $0.systemPrompt = $1 },
            flag: .value("TEXT", "system prompt", short: "s", long: "system"),
            about: "The system prompt sent first in every conversation."),
    ]

    private static let trailing: [Setting] = [
        Setting(
            "connect_timeout", .seconds(0.001...3600), default: .number(10), to: { $0.server.connectTimeout = $1 },
            flag: .value("SECS", "give up connecting after SECS"),
            about: "Seconds to wait for a connection before giving up."),
        Setting(
            "idle_timeout", .seconds(0.001...86_400), default: .number(60), to: { $0.server.idleTimeout = $1 },
            flag: .value("SECS", "give up when no data arrives for SECS"),
            about: "Seconds without a byte from the server before giving up."),
        Setting(
            "stream", .boolean, default: .boolean(true), to: { $0.chat.stream = $1 },
            flag: .switch("ask for the whole answer at once"),
            about: "Whether the answer streams as it is generated (false: asked for whole)."),
        Setting(
            "api_key", .text(), environment: "OPENAI_API_KEY",
            about:
                "The API key itself (only in a config file others cannot read; an environment variable, file or command is better)."
        ),
        Setting("api_key_env", .text(), about: "The environment variable that holds the API key."),
        Setting("api_key_file", .text(), about: "A file that holds the API key (`~/` allowed)."),
        Setting(
            "api_key_command", .text(),
            about: "A command whose output is the API key (a password manager), run only when a request needs it."),
        Setting(
            "headers", .stringMap,
            about: "Header fields sent with every request to the server (an object of strings; merged across levels)."),
        Setting(
            "proxy", .text(), to: { $0.server.proxy = $1 },
            about:
                "The proxy for requests (`http://`, `https://`, `socks5://`…), instead of the proxy environment variables."
        ),
        Setting(
            "retries", .wholeNumber(minimum: 0, flagMaximum: 20), default: .wholeNumber(2),
            to: { $0.server.retry.maxRetries = $1 }, flag: .value("N", "send a failed request again up to N times"),
            about:
                "How many times a failed request is sent again (connection failures, 429, 5xx), with backoff and `Retry-After`."
        ),
        // TLS
        Setting(
            "ca_cert", .text(nonEmptyFlag: true), to: { $0.server.tls.caCertificate = $1 },
            flag: .value(
                "FILE",
                "verify the server with the CA certificates in FILE (PEM; default: SSL_CERT_FILE, CURL_CA_BUNDLE, "
                    + "the system's)", completion: .file),
            about: "A file of CA certificates (PEM) that verify the server, instead of the system's."),
        Setting(
            "client_cert", .text(nonEmptyFlag: true), to: { $0.server.tls.clientCertificate = $1 },
            flag: .value(
                "FILE", "show the client certificate in FILE (PEM) to a server that wants one", completion: .file),
            about: "A client certificate (PEM) for a server that wants mutual TLS."),
        Setting(
            "client_key", .text(nonEmptyFlag: true), to: { $0.server.tls.clientKey = $1 },
            flag: .value("FILE", "the client certificate's private key (PEM), if not in its file", completion: .file),
            about: "The client certificate's private key (PEM), when it is not in the certificate's file."),
        Setting(
            "allow_insecure_http", .boolean, default: .boolean(false),
            flag: .switch("allow sending the API key over plain http to another host"),
            about: "Whether the API key may go over plain http to another machine (loopback is always allowed)."),
        Setting(
            "history", .boolean, default: .boolean(true), to: { $0.history = $1 },
            flag: .switch("store nothing for this run (not even input history)"),
            about:
                "Whether conversations are stored in the history (false stores nothing, not even the REPL's input lines)."
        ),
        Setting(
            "max_context_tokens", .wholeNumber(minimum: 1), to: { $0.chat.maxContextTokens = $1 },
            about:
                "The model's context window in tokens, instead of chat's table or the server's figure: near it, the "
                + "oldest turns are summarised (`auto_compact`), or left out of requests with `auto_compact` false."),
        Setting(
            "auto_compact", .boolean, default: .boolean(true), to: { $0.chat.autoCompact = $1 },
            about:
                "Whether a conversation nearing the context window has its oldest turns summarised by the model, "
                + "the summary sent in their place (false leaves them out instead, where the window is known)."),
        // Roles and attachments
        Setting(
            "max_file_bytes", .wholeNumber(minimum: 1), default: .wholeNumber(1_048_576), to: { $0.maxFileBytes = $1 },
            about: "The most bytes of text the files attached to one message may hold."),
        // Rendering
        Setting(
            "render", .choice(RenderMode.allCases.map(\.rawValue)), default: .text(RenderMode.auto.rawValue),
            to: { $0.render = $1 },
            flag: .value("WHEN", "render the answer's Markdown: auto (on a terminal; the default), always or never"),
            about: "When the answer's Markdown is rendered: `auto` (on a terminal), `always` or `never`."),
        // Providers
        Setting(
            "provider", .choice(ProviderKind.allCases.map(\.rawValue)), default: .text(ProviderKind.openAI.rawValue),
            to: { $0.server.provider = $1 },
            about:
                "Whose API the server speaks: `openai` (Chat Completions), `anthropic` (Messages) or "
                + "`openai-responses` (OpenAI's Responses API)."),
        Setting(
            "images", .boolean, default: .boolean(true), to: { $0.server.takesImages = $1 },
            about:
                "Whether the model takes images: false sends a note in the place of each image (a tool's, or one "
                + "in an earlier message) and refuses images attached to a message."),
        Setting(
            "pdf", .choice(PDFHandling.allCases.map(\.rawValue)), default: .text(PDFHandling.native.rawValue),
            to: { $0.pdf = $1 },
            about:
                "How an attached PDF goes to the model: `native` (the file itself, for models that read PDFs) or "
                + "`text` (its text, extracted with `pdftotext` from poppler-utils, within `max_file_bytes`)."),
        // Anthropic's (the resolver refuses thinking_budget for another provider)
        Setting(
            "thinking_budget", .wholeNumber(minimum: 1024), to: { $0.server.thinkingBudget = $1 },
            flag: .value(
                "TOKENS", "let an anthropic-provider model think first, with up to TOKENS tokens (at least 1024)",
                long: "thinking"),
            about: "With the anthropic provider: let the model think first, with up to this many tokens."),
        Setting(
            "thinking_form", .choice(ThinkingForm.allCases.map(\.rawValue)), to: { $0.server.thinkingForm = $1 },
            about:
                "With the anthropic provider: ask the model to think in this form, `adaptive` (with an effort) or "
                + "`budget` (a number of tokens), whatever chat's table of models says."),
        Setting(
            "show_reasoning", .boolean, default: .boolean(true),
            to: { $0.server.reasoning = ReasoningSwitch(shown: $1) },
            flag: .switch("show no reasoning (a model's thinking stays off the screen)", long: "hide-reasoning"),
            about:
                "Whether the model's reasoning is shown (dimmed, on stderr); false also asks a provider that can "
                + "be asked not to send it."),
        Setting(
            "cache", .boolean, default: .boolean(false), to: { $0.server.promptCaching = $1 },
            about: "With the anthropic provider: ask the server to cache the system prompt and the conversation so far."
        ),
        // Web search on the server (anthropic and openai-responses; the resolver refuses it for openai)
        Setting(
            "web_search", .boolean, default: .boolean(false), to: { $0.server.webSearch = WebSearchSwitch(on: $1) },
            flag: .switch(
                "let the model search the web on the server, its sources listed after the answer", long: "web"),
            about:
                "Whether the model may search the web on the server (the anthropic and openai-responses providers), "
                + "the sources it cites listed after the answer."),
        Setting(
            "web_search_max_uses", .wholeNumber(minimum: 1), default: .wholeNumber(5),
            to: { $0.server.webSearchMaxUses = $1 },
            about: "With the anthropic provider and `web_search`: the most searches one answer may run."),
        // Tools from MCP servers (the config's `mcp_servers`)
        Setting(
            "tools", .names, to: { $0.tools.servers = $1 },
            flag: .value(
                "NAME[,NAME]", "offer the tools of these MCP servers (the config's mcp_servers) to the model",
                short: "T", completion: .listed("tool-servers")),
            about: "The MCP servers (names in `mcp_servers`) whose tools the model is offered."),
        Setting(
            "max_tool_rounds", .wholeNumber(minimum: 1), default: .wholeNumber(10), to: { $0.tools.roundLimit = $1 },
            flag: .value("N", "run at most N rounds of tool calls, then ask whether to go on"),
            about: "Rounds of tool calls in one turn before chat asks whether to go on."),
        Setting(
            "max_tool_result_bytes", .wholeNumber(minimum: 1), default: .wholeNumber(100_000),
            to: { $0.tools.maxResultBytes = $1 },
            about: "The most bytes of one tool result sent to the model; a longer one is cut, saying so."),
        // Fallback
        Setting(
            "fallback", .names, to: { $0.fallback = $1 },
            about:
                "Profiles to ask instead, in order, when an answer fails before any of its text with an overload "
                + "(429, 529), a server error (5xx) or a model the server does not have (not one named with `-m`)."),
        // Cost
        Setting(
            "max_cost", .number(0...1_000_000), to: { $0.maxCost = $1 },
            flag: .value("USD", "spend at most USD dollars this run (by chat's prices), then ask whether to go on"),
            about:
                "The most a run (a one-shot with its tool rounds, or a REPL session) may spend, in US dollars, by the "
                + "prices chat knows (`prices`); when it is reached chat asks whether to go on, or stops."),
    ]

    /// The entry for `key`, if it is a config key.
    static func setting(_ key: String) -> Setting? {
        byKey[key]
    }

    private static let byKey = Dictionary(uniqueKeysWithValues: all.map { ($0.key, $0) })
}
