import ChatDomain

/// What the models people use cost, in US dollars per million tokens (web searches per
/// thousand), as their providers publish it: the one table of prices. It is looked up by the
/// model name the server reports, then the one asked for (`PriceBook`: an exact name, else the
/// name without its snapshot date); the config's `prices` come first. Each group says where its
/// figures come from and when they were read; a figure no source gave is left out (the cache's
/// then costs as input) unless the provider's stated rule gives it, which the line says.
/// Models already shut down are left out; so is one whose current price is not known.
package enum PriceTable {
    /// When the figures were last checked.
    package static let checked = "2026-12-07"

    package static let entries: [PriceBook.Entry] = anthropic + openAI

    /// Anthropic: platform.claude.com/docs/en/about-claude/pricing ("Model pricing"; 5-minute
    /// cache writes are 1.25× input, reads 0.1× unless listed) and each model's overview page,
    /// read 2026-12-07 from copies of late 2026; web search $10 per thousand
    /// (platform.claude.com, web search tool). Before the 4.6 generation a model has a dated id
    /// and an alias; from 4.6 on, ids have no date.
    static let anthropic: [PriceBook.Entry] = [
        // Secondary sources only (docs.sim.ai 2026-11-09, claude-usage 2026-12-01): released
        // 2026-11-09. Cache write by Anthropic's 1.25× rule.
        .init("claude-fable-5-2", anthropicPrice(8, 40, read: 0.20)),
        .init("claude-mythos-5-2", anthropicPrice(8, 40, read: 0.20)),
        .init("claude-fable-5-1", anthropicPrice(10, 50, read: 0.25)),
        .init("claude-mythos-5-1", anthropicPrice(10, 50, read: 0.25)),
        .init("claude-fable-5", anthropicPrice(10, 50, read: 1)),
        .init("claude-mythos-5", anthropicPrice(10, 50, read: 1)),
        .init("claude-opus-5-5", anthropicPrice(4, 20, read: 0.20)),
        .init("claude-opus-5", anthropicPrice(5, 25)),
        .init("claude-opus-4-8", anthropicPrice(5, 25)),
        .init("claude-opus-4-7", anthropicPrice(5, 25)),
        .init("claude-opus-4-6", anthropicPrice(5, 25)),
        .init("claude-opus-4-5", anthropicPrice(5, 25)),
        // Retired on Anthropic's API, still served on Bedrock and Google Cloud.
        .init("claude-opus-4-1", anthropicPrice(15, 75)),
        // Cache read $0.10 since 2026-10-07 (four trackers and LiteLLM 1.108.7; a capture of the
        // model's page still says $0.20).
        .init("claude-sonnet-5-5", anthropicPrice(2, 10, read: 0.10)),
        .init("claude-sonnet-5", anthropicPrice(2, 10)),
        .init("claude-sonnet-4-6", anthropicPrice(3, 15)),
        .init("claude-sonnet-4-5", anthropicPrice(3, 15)),
        // A prompt of more than 100,000 tokens (cache reads and writes included) costs every
        // token of the request at the higher rates (the model's page).
        .init(
            "claude-haiku-5-5",
            ModelPrice(
                input: 0.10, output: 0.50, cacheRead: 0.01, cacheWrite: 0.125, webSearch: 10,
                longPrompt: .init(above: 100_000, input: 0.50, output: 2.50, cacheRead: 0.05, cacheWrite: 0.625))),
        // chat's default Anthropic model.
        .init("claude-haiku-4-5", anthropicPrice(1, 5)),
    ]

    /// OpenAI: its models' pages (developers.openai.com/api/docs/models/…) where a copy was
    /// found, else LiteLLM 1.108.7's price file and pydantic's genai-prices (2026-08-21), which
    /// agree; read 2026-12-07. Cache writes are free before GPT-5.6, 1.25× input from it on.
    /// The `web_search` tool costs $10 per thousand calls, its content billed as input. Models
    /// marked long cost twice the input and cache rates and 1.5× the output rate for a request
    /// of more than 272,000 prompt tokens (the models' pages). Left out: gpt-5.6-sol, whose
    /// promotional $4/$20 ran "at least until Nov 21, 2026" and whose price since is not known;
    /// o1, o3-mini, o4-mini and gpt-4.1-nano, shut down on 2026-10-23.
    static let openAI: [PriceBook.Entry] = [
        // chat's default OpenAI model; shuts down 2027-01-14 (gpt-6-luna replaces it).
        .init("gpt-4o-mini", ModelPrice(input: 0.15, output: 0.60, cacheRead: 0.075, webSearch: 10)),
        .init("gpt-4o", ModelPrice(input: 2.50, output: 10, cacheRead: 1.25, webSearch: 10)),
        .init("gpt-4.1", ModelPrice(input: 2, output: 8, cacheRead: 0.50, webSearch: 10)),
        .init("gpt-4.1-mini", ModelPrice(input: 0.40, output: 1.60, cacheRead: 0.10, webSearch: 10)),
        .init("o3", ModelPrice(input: 2, output: 8, cacheRead: 0.50, webSearch: 10)),
        .init("gpt-5", ModelPrice(input: 1.25, output: 10, cacheRead: 0.125, webSearch: 10)),
        .init("gpt-5-mini", ModelPrice(input: 0.25, output: 2, cacheRead: 0.025, webSearch: 10)),
        .init("gpt-5-nano", ModelPrice(input: 0.05, output: 0.40, cacheRead: 0.005, webSearch: 10)),
        .init("gpt-5.1", ModelPrice(input: 1.25, output: 10, cacheRead: 0.125, webSearch: 10)),
        .init("gpt-5.2", ModelPrice(input: 1.75, output: 14, cacheRead: 0.175, webSearch: 10)),
        .init("gpt-5.3-codex", ModelPrice(input: 1.75, output: 14, cacheRead: 0.175, webSearch: 10)),
        .init("gpt-5.4", openAILong(2.50, 15, read: 0.25, write: nil)),
        .init("gpt-5.4-mini", ModelPrice(input: 0.75, output: 4.50, cacheRead: 0.075, webSearch: 10)),
        .init("gpt-5.4-nano", ModelPrice(input: 0.20, output: 1.25, cacheRead: 0.02, webSearch: 10)),
        .init("gpt-5.5", openAILong(5, 30, read: 0.50, write: nil)),
        .init("gpt-5.6-terra", openAILong(2, 12, read: 0.20, write: 2.50)),
        .init("gpt-5.6-luna", openAILong(0.20, 1.20, read: 0.02, write: 0.25)),
        .init("gpt-6-astra", openAILong(10, 50, read: 1, write: 12.50)),
        .init("gpt-6-sol", openAILong(2, 10, read: 0.20, write: 2.50)),
        .init("gpt-6-luna", openAILong(0.10, 0.50, read: 0.01, write: 0.125)),
        .init("gpt-6.1-sol", openAILong(2, 10, read: 0.10, write: 2.50)),
        .init("gpt-6.1-terra", openAILong(1, 5, read: 0.05, write: 1.25)),
        .init("gpt-6.2-sol", openAILong(2, 10, read: 0.10, write: 2.50)),
        // OpenAI's recommended model (2026-11-17). Its page gives no cache prices: reads at a
        // tenth of input and writes at 1.25×, as OpenAI's newest models have them.
        .init("gpt-6.2-astra", openAILong(8, 40, read: 0.80, write: 10)),
    ]

    /// An Anthropic price: cache reads 0.1× input unless given, 5-minute writes 1.25× input,
    /// web search $10 per thousand.
    private static func anthropicPrice(_ input: Double, _ output: Double, read: Double? = nil) -> ModelPrice {
        ModelPrice(input: input, output: output, cacheRead: read ?? input / 10, cacheWrite: input * 1.25, webSearch: 10)
    }

    /// An OpenAI price with the long-prompt rule: past 272,000 prompt tokens, input and cache
    /// twice, output 1.5×.
    private static func openAILong(_ input: Double, _ output: Double, read: Double, write: Double?) -> ModelPrice {
        ModelPrice(
            input: input, output: output, cacheRead: read, cacheWrite: write, webSearch: 10,
            longPrompt: .init(
                above: 272_000, input: input * 2, output: output * 1.5, cacheRead: read * 2,
                cacheWrite: write.map { $0 * 2 }))
    }
}
