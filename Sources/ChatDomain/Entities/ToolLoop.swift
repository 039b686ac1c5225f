/// What an answer's tool calls run with: where the tools are, who consents to each call, and
/// how many rounds of calls run before the consent is asked whether to go on.
public struct ToolLoop: Sendable {
    /// The tools offered and how to run them.
    public var source: any ToolSource
    /// Who decides whether each call runs.
    public var consent: any ToolConsent
    /// Rounds of tool calls (an answer's calls, run, and the answer to their results) before
    /// `ToolConsent.continueAfter` is asked.
    public var roundLimit: Int
    /// The most bytes of text of one result sent to the model; a longer one is cut, saying so.
    public var maxResultBytes: Int

    /// Creates a tool loop; `roundLimit` and `maxResultBytes` are at least 1.
    public init(
        source: any ToolSource, consent: any ToolConsent, roundLimit: Int = 10, maxResultBytes: Int = 100_000
    ) {
        self.source = source
        self.consent = consent
        self.roundLimit = max(1, roundLimit)
        self.maxResultBytes = max(1, maxResultBytes)
    }
}
