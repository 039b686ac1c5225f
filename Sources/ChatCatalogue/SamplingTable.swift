import ChatDomain

/// Every sampling parameter, once: the settings table takes its rows from here, and the request
/// body, the stored settings, `/save` files, roles and the role listing iterate it. A new
/// parameter is a case of `SamplingParameter` and a row here.
package enum SamplingTable {
    package static let all: [SamplingSetting] = [
        SamplingSetting(
            .temperature, "temperature", .number(0...2), help: "sampling temperature, 0 to 2 (default: the server's)"),
        SamplingSetting(
            .maxTokens, "max_tokens", .wholeNumber(minimum: 1),
            help: "upper bound on answer tokens (sent as max_tokens)"),
        SamplingSetting(
            .topP, "top_p", .number(0...1), help: "nucleus sampling: the top share of probability to pick from, 0 to 1",
            valueName: "P"),
        SamplingSetting(
            .seed, "seed", .wholeNumber(minimum: 0, flagMaximum: 9_007_199_254_740_991),
            help: "ask for the same answer to the same request, as far as the server can (sent as seed)"),
        // Each provider maps the level to what its API takes (`reasoning_effort` on the Chat
        // Completions wire: docs/providers.md has the table).
        SamplingSetting(
            .effort, "effort", .choice(ReasoningEffort.allCases.map(\.rawValue)), wireName: "reasoning_effort",
            help: "how hard a reasoning model thinks: none, minimal, low, medium, high, xhigh or max",
            valueName: "LEVEL"),
    ]
}
