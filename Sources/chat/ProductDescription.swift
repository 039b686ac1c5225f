/// What chat is, said once: `--help`'s overview, the man page's NAME and DESCRIPTION, and (through
/// `scripts/docs`) the README's first paragraph all come from here.
enum ProductDescription {
    /// In a few words: `--help`'s first line and the man page's NAME.
    static let summary = "a terminal client for OpenAI-compatible and Anthropic chat APIs, with MCP tools"

    /// In one paragraph, plain text (no markup, so every place can show it as it is).
    static let paragraph = """
        chat talks to chat APIs from the terminal: any server that speaks OpenAI's Chat Completions \
        (OpenAI, OpenRouter, Groq, Azure, Ollama, llama.cpp, vLLM), OpenAI's Responses API, and \
        Anthropic's Messages API natively, with a model's reasoning shown as it thinks and one \
        --effort for how hard it does. It streams the answer to standard output as it is generated, as plain text for \
        pipes and as Markdown on a terminal; it keeps one-shot questions and REPL conversations in a \
        crash-safe, searchable history; it lets the model call the tools of MCP servers, each call \
        only with the person's consent; and with no API key at all it answers with a small model \
        that runs on this machine.
        """
}
