import ChatDomain

/// The context windows of the models people use, in tokens (prompt and answer together), as
/// their providers publish them: the one table of windows, looked up as `PriceTable` is (an
/// exact name, else the name without its snapshot date). The config's `max_context_tokens`
/// comes first; a model not here takes the server's own figure where it gives one
/// (`GPTRepository.contextWindow(of:)`). Sources as `PriceTable`'s, read 2026-12-07.
package enum WindowTable {
    package static let entries: [ContextWindows.Entry] = anthropic + openAI

    /// Anthropic: each model's overview page and the models' comparison tables. From the 4.6
    /// generation on, the whole window is 1M tokens at one price; before, 200K (Sonnet 4.5's 1M
    /// was a beta that had to be asked for).
    static let anthropic: [ContextWindows.Entry] =
        [
            "claude-fable-5-2", "claude-mythos-5-2", "claude-fable-5-1", "claude-mythos-5-1", "claude-fable-5",
            "claude-mythos-5", "claude-opus-5-5", "claude-opus-5", "claude-opus-4-8", "claude-opus-4-7",
            "claude-opus-4-6", "claude-sonnet-5-5", "claude-sonnet-5", "claude-sonnet-4-6", "claude-haiku-5-5",
        ].map { .init($0, 1_000_000) }
        + ["claude-opus-4-5", "claude-opus-4-1", "claude-sonnet-4-5", "claude-haiku-4-5"].map { .init($0, 200_000) }

    /// OpenAI: the models' pages where a copy was found, else LiteLLM 1.108.7's file. A 1.05M
    /// window takes at most 922K of prompt; gpt-6-sol's window was not found (LiteLLM gives its
    /// 922K of prompt, as its siblings'), so it is taken to be theirs.
    static let openAI: [ContextWindows.Entry] =
        ["gpt-4o-mini", "gpt-4o"].map { .init($0, 128_000) }
        + ["gpt-4.1", "gpt-4.1-mini"].map { .init($0, 1_047_576) }
        + [.init("o3", 200_000)]
        + ["gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-5.1", "gpt-5.2", "gpt-5.3-codex", "gpt-5.4-mini", "gpt-5.4-nano"]
        .map { .init($0, 400_000) }
        + [
            "gpt-5.4", "gpt-5.5", "gpt-5.6", "gpt-5.6-sol", "gpt-5.6-terra", "gpt-5.6-luna", "gpt-6-astra",
            "gpt-6-sol", "gpt-6-luna", "gpt-6.1-sol", "gpt-6.1-terra", "gpt-6.2-sol", "gpt-6.2-astra",
        ].map { .init($0, 1_050_000) }
}
