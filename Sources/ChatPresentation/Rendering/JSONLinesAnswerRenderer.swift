import ChatDomain

/// `AnswerRenderer` for `--json`: each of the answer's events as a JSON object on a line of its
/// own, written as it happens — `start`, then `delta`, `reasoning`, `retry`, `search` (a web
/// search's query), `citation` (each source the answer cites, once, numbered) and `usage` as they
/// arrive, and last `done` (or `error`, a cancelled answer's too). Retry notes still go to the
/// notes stream on a terminal; reasoning only to the lines. Event schema version 1, documented
/// in docs/scripting.md.
public final class JSONLinesAnswerRenderer: AnswerRenderer {
    /// The version of the events' schema, on `start`.
    public static let version = 1

    private let lines: JSONLines
    private var events: AnswerEventRouter
    private let model: String
    private let provider: String
    private let reportsCommand: Bool
    private var wroteStart = false
    private var finishReason: String?
    public private(set) var printedText = false
    public var outputClosed: Bool { events.outputClosed }

    /// Lines go to `lines`; retry notes to `notes` (styled with `notesStyle`). `start` names
    /// `model` and `provider`. With `reportsCommand` (`-x`), a `command` event gives the command
    /// the answer holds, before `done`.
    public init(
        lines: JSONLines, notes: any OutputSink, notesStyle: TerminalStyle, model: String, provider: String,
        reportsCommand: Bool = false
    ) {
        self.lines = lines
        events = AnswerEventRouter(
            notes: AnswerNotes(sink: notes, style: notesStyle), showsReasoning: false, showsSearches: false)
        self.model = model
        self.provider = provider
        self.reportsCommand = reportsCommand
    }

    public func started(conversation: String?) {
        guard !wroteStart else { return }
        wroteStart = true
        write([
            "type": .string("start"), "v": .number(Double(Self.version)), "conversation": .string(conversation),
            "model": .string(model), "provider": .string(provider),
        ])
    }

    public func render(_ event: ChatEvent) {
        started(conversation: nil)
        events.route(event) { piece in
            guard lines.write(["type": .string("delta"), "text": .string(piece)]) else { return false }
            printedText = true
            return true
        }
        switch event {
        case .text, .toolCalls, .thinking, .sentAsText, .notice, .searched:
            break
        case .searching(let query):
            write(["type": .string("search"), "query": .string(query)])
        case .cited(let citation):
            guard let number = events.newSource else { break }
            write([
                "type": .string("citation"), "n": .number(number), "url": .string(citation.url),
                "title": .string(citation.title),
            ])
        case .fellBack(let from, let to, let model, let error):
            write([
                "type": .string("fallback"), "from": .string(from), "to": .string(to), "model": .string(model),
                "kind": .string(ErrorWording.kind(of: error)), "status": .number(ErrorWording.status(of: error)),
            ])
        case .resumed(let reason):
            write(["type": .string("resume"), "kind": .string(ErrorWording.kind(of: reason))])
        case .reasoning(let piece):
            if !piece.isEmpty { write(["type": .string("reasoning"), "text": .string(piece)]) }
        case .retrying(let attempt, let limit, let delay, let reason):
            write([
                "type": .string("retry"), "attempt": .number(attempt), "limit": .number(limit), "delay": .number(delay),
                "reason": .string(ServerText.line(reason, limit: 240)),
            ])
        case .usage(let usage):
            write([
                "type": .string("usage"), "prompt_tokens": .number(usage.promptTokens),
                "completion_tokens": .number(usage.completionTokens), "total_tokens": .number(usage.totalTokens),
                "cached_tokens": .number(usage.cacheReadTokens), "reasoning_tokens": .number(usage.reasoningTokens),
                "web_searches": .number(usage.webSearches), "cost_usd": .number(usage.costUSD),
            ])
        case .finished(let reason):
            finishReason = reason
        }
    }

    /// The last line: `done` with why the answer ended and its stored id, or `error` with the
    /// same facts as the error's line on stderr.
    public func finish(_ turn: Turn) {
        events.finish()
        started(conversation: nil)
        guard let answer = turn.answer else {
            let error = turn.error ?? .malformedResponse("no answer")
            write([
                "type": .string("error"), "kind": .string(ErrorWording.kind(of: error)),
                "status": .number(ErrorWording.status(of: error)), "message": .string(ErrorWording.line(for: error)),
            ])
            return
        }
        if reportsCommand {
            write(["type": .string("command"), "text": .string(ShellCommandText.command(in: answer.content))])
        }
        write([
            "type": .string("done"), "finish_reason": .string(finishReason),
            "message_id": .number(answer.storageID.map { Int($0) }),
        ])
    }

    /// After `done`: an `error` of kind `schema_mismatch`.
    public func mismatched(_ line: String) {
        write([
            "type": .string("error"), "kind": .string("schema_mismatch"), "status": .null, "message": .string(line),
        ])
    }

    /// Writes one line, unless the reader has gone (then the answer is stopped).
    private func write(_ members: [String: JSONValue]) {
        guard !outputClosed else { return }
        if !lines.write(members) { events.readerGone() }
    }
}
