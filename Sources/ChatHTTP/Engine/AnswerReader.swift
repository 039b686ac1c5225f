import ChatDomain
import ChatSystem

/// One answer being read, in the task of whoever reads it (`read`): each step takes what the
/// transfer has delivered since the last one (all of it, in one go), runs it through `SSEParser`
/// and the provider's `StreamDecoder`, and hands the events on. Sends the request again after a
/// retryable failure before any answer arrived (`.retrying` first, then the wait), or at once in
/// the variant the provider falls back to. An answer whose stream broke is asked for again from
/// where it stopped (`resume(after:)`), and one the server paused (`ChatProvider.pauseReason`) is
/// sent back for it to go on (`continuePausedTurn()`): either way, one answer to the caller.
///
/// Why pulled and not pushed from a task of its own: every hop between tasks wakes a thread;
/// reading in the consumer's task leaves one hop per batch of bytes (libcurl's thread to the
/// consumer), and none per event.
///
/// Where the reader runs is decided here, not by the caller: it prefers `readingExecutor`
/// (unless its task prefers an executor of its own), which runs it on the transfer's thread when
/// a token comes after a pause, from the socket to `onEvent` without waking another thread; and
/// it leaves that thread before `read` returns (see `ConsumerExecutor`).
final class AnswerReader<Provider: ChatProvider>: AnswerStream {
    private let runner: RequestRunner<Provider>
    /// The request asked for.
    private let asked: ChatRequest
    /// The request sent now: `asked`, or its continuation after a break (`resume(after:)`) or a
    /// pause (`continuePausedTurn()`).
    private var request: ChatRequest
    private var variant: Provider.RequestVariant
    private var fellBack = false
    private var retries = 0
    private var attempt: Attempt?
    /// Seconds to wait before the next attempt (a `.retrying` event said so).
    private var waitBeforeNextAttempt: Double?
    /// An error to throw once the events before it are handed on.
    private var failure: (any Error)?
    private var done = false
    private var events: [ChatEvent] = []
    private var nextEvent = 0
    /// The answer so far, every attempt's, as handed on (its text, thinking, searches and
    /// citations): the text a break's continuation starts from, the content a pause's sends back.
    private var answer = ChatMessage(role: .assistant, content: "")
    /// Whether the answer has anything but text so far (reasoning, thinking, tool calls): it
    /// cannot be continued from its text.
    private var notTextOnly = false
    /// How many times the answer was resumed after a break.
    private var resumes = 0
    /// The break a continuation is being read for: its error, thrown if the continuation fails
    /// before its answer begins.
    private var broken: ChatError?
    /// How many times the server paused the answer and it was sent back (at most
    /// `PausedTurn.continuations`).
    private var pauses = 0
    /// Whether the answer being read now ended paused: its stop reason and usage are withheld.
    private var paused = false
    /// The usage the paused request reported (its latest count), withheld.
    private var pausedRequestUsage: TokenUsage?
    /// The usage of the requests paused so far, added to the next request's as it is handed on:
    /// the caller sees (and prices) the answer's whole usage once.
    private var pausedUsage: TokenUsage?
    /// Whitespace the answer showed before it broke that the continuation's prefill left out:
    /// the continuation's own at its start is not shown again.
    private var shownWhitespace: Substring = ""

    /// Sends the first request at once, so it is on its way while the caller does other work.
    init(runner: RequestRunner<Provider>, request: ChatRequest) {
        self.runner = runner
        asked = request
        self.request = request
        variant = runner.provider.variant(for: request)
        startAttempt()
        guard attempt != nil else { return }
        // The request is on its way: the first-use costs of the decoding path, and of reading on
        // the transfer's thread, are paid now, before the caller's own work while it waits (a
        // one-shot stores its question, and reads only once that is done), not after it.
        Attempt.warmUp(runner.provider)
        ConsumerExecutor.warmUp()
    }

    package func read(_ onEvent: (ChatEvent) -> Void) async throws(ChatError) {
        let preferred = withUnsafeCurrentTask { $0?.unownedTaskExecutor } == nil ? runner.readingExecutor : nil
        // Why it failed, if it did: an optional, not a `Result` of `ChatError`, whose type
        // metadata cost a search of the binary's conformances on every run.
        let failure: ChatError? = await withTaskExecutorPreference(preferred) {
            do {
                while let event = try await next() { onEvent(event) }
                return nil
            } catch {
                return Self.chatError(from: error)
            }
        }
        // What follows the answer (storing it, the next prompt, ending the process) never runs
        // inside libcurl's callback.
        await ConsumerExecutor.leaveTransferThread()
        if let failure { throw failure }
    }

    private static func chatError(from error: any Error) -> ChatError {
        if let error = error as? ChatError { return error }
        if error is CancellationError { return .cancelled }
        return .malformedResponse(String(describing: error))
    }

    /// The answer's next event; nil once it is complete. Throws a `ChatError` when it fails, or
    /// `CancellationError` when the reading task is cancelled.
    private func next() async throws -> ChatEvent? {
        while true {
            if nextEvent < events.count {
                defer { nextEvent += 1 }
                return events[nextEvent]
            }
            events.removeAll(keepingCapacity: true)
            nextEvent = 0
            if let failure {
                self.failure = nil
                done = true
                attempt = nil
                throw failure
            }
            if done { return nil }
            if let delay = waitBeforeNextAttempt {
                waitBeforeNextAttempt = nil
                try await Task.sleep(for: .milliseconds(Int(delay * 1000)))
                startAttempt()
                continue
            }
            guard let current = attempt else {
                done = true
                return nil
            }
            let start = events.count
            do {
                let more = try await current.read(into: &events)
                take(from: start)
                if more { continue }
                attempt = nil
                if fellBack { runner.provider.fallbackWorked(variant) }
                if continuePausedTurn() { continue }
                done = true
            } catch let failure as AttemptFailure {
                take(from: start)
                attempt = nil
                if let broken {
                    // The continuation was refused: the break stands.
                    if runner.provider.refusesContinuation(
                        failure.error, detail: failure.detail, model: request.settings.model)
                    {
                        runner.diagnostics.note(
                            "\(request.settings.model) takes no prefill: the answer is not resumed, now or later this run"
                        )
                    } else {
                        runner.diagnostics.note("the answer's continuation failed: \(failure.summary)")
                    }
                    self.failure = broken
                } else {
                    try retry(after: failure)
                }
            } catch {
                take(from: start)
                attempt = nil
                if !resume(after: error) { self.failure = error }
            }
        }
    }

    /// Goes over the events from `start` on, as they are to be handed on: keeps the answer so far,
    /// leaves out of a continuation's first text the whitespace shown before the break, and
    /// withholds a pause (its stop reason; its usage, added to the next request's). Only for a
    /// provider that can continue an answer, which a retry may do, or whose server may pause one:
    /// the others' answers are not gone over twice.
    private func take(from start: Int) {
        let pause = runner.provider.pauseReason
        guard pause != nil || (runner.provider.continuesAnswers && runner.server.retry.maxRetries > 0) else {
            return
        }
        var index = start
        while index < events.count {
            switch events[index] {
            case .text(var piece):
                if !shownWhitespace.isEmpty {
                    while let first = piece.first, first == shownWhitespace.first {
                        piece.removeFirst()
                        shownWhitespace.removeFirst()
                    }
                    if !piece.isEmpty { shownWhitespace = "" }
                    if piece.isEmpty {
                        events.remove(at: index)
                        continue
                    }
                    events[index] = .text(piece)
                }
            case .reasoning, .thinking, .toolCalls:
                notTextOnly = true
            case .finished(let reason) where reason == pause && pauses < PausedTurn.continuations:
                paused = true
                events.remove(at: index)
                continue
            case .usage(let usage) where paused:
                pausedRequestUsage = usage
                events.remove(at: index)
                continue
            case .usage(let usage):
                if let before = pausedUsage { events[index] = .usage(before.adding(usage)) }
            default:
                break
            }
            answer.add(events[index])
            index += 1
        }
    }

    /// After an answer the server paused (`ChatProvider.pauseReason`), while the continuations
    /// allow: asks the server to go on, with the answer so far, every block of it as it came
    /// (searches, their results, cited text, thinking), as the assistant's last message. What
    /// follows continues the answer. Returns whether it did.
    private func continuePausedTurn() -> Bool {
        guard paused else { return false }
        paused = false
        pauses += 1
        if let usage = pausedRequestUsage {
            pausedUsage = pausedUsage.map { $0.adding(usage) } ?? usage
            pausedRequestUsage = nil
        }
        var continued = asked
        continued.messages.append(answer)
        request = continued
        runner.diagnostics.note(
            "the server paused the answer (\(runner.provider.pauseReason ?? "")): sent it back to go on "
                + "(\(pauses) of at most \(PausedTurn.continuations))")
        startAttempt()
        return true
    }

    /// After `error` broke the answer's stream: asks for its continuation from the text shown, when
    /// the break is one a connection makes (a reset, an idle timeout, a cut body), the answer so
    /// far is text only, the retries allow (`retries`) and the provider can continue it. Returns
    /// whether it did.
    private func resume(after error: any Error) -> Bool {
        // An answer the server paused is not resumed: its continuation would have to carry the
        // paused content too.
        guard let error = error as? ChatError, resumes < runner.server.retry.maxRetries, !notTextOnly, pauses == 0
        else {
            return false
        }
        switch error {
        case .connection, .idleTimeout, .streamCut: break
        default: return false
        }
        let text = answer.content
        var shown = Substring(text)
        while let last = shown.last, last.isWhitespace { shown.removeLast() }
        guard let continuation = runner.provider.continuation(of: asked, after: String(shown), variant: variant)
        else { return false }
        resumes += 1
        broken = error
        shownWhitespace = text[shown.endIndex...]
        request = continuation
        runner.diagnostics.note(
            "the answer broke off after \(text.count) characters (\(error)): asked again with them as a prefill")
        events.append(.resumed(reason: error))
        startAttempt()
        return true
    }

    private func startAttempt() {
        do {
            try RequestSizeCheck.check(
                filesOf: request, limit: runner.provider.requestByteLimit, provider: runner.server.provider.rawValue)
            let shaped = try runner.provider.chatRequest(for: request, variant: variant)
            try RequestSizeCheck.check(
                shaped.body, of: request, limit: runner.provider.requestByteLimit,
                provider: runner.server.provider.rawValue)
            if shaped.sentAsText { events.append(.sentAsText(provider: runner.server.provider.rawValue)) }
            events += shaped.notices.map(ChatEvent.notice)
            attempt = Attempt(runner: runner, request: shaped)
        } catch {
            failure = error
        }
    }

    /// After a failure before any answer arrived: the provider's fallback at once, or a retry
    /// after its delay, or the failure itself.
    private func retry(after failure: AttemptFailure) throws(ChatError) {
        if let next = runner.provider.fallback(from: variant, after: failure.error, detail: failure.detail) {
            if let note = runner.provider.fallbackNote(next) { runner.diagnostics.note(note) }
            variant = next
            fellBack = true
            startAttempt()
            return
        }
        let policy = runner.server.retry
        guard failure.retryable, retries < policy.maxRetries else { throw failure.error }
        let delay = policy.delay(beforeRetry: retries, retryAfter: failure.retryAfter, jitter: .random(in: 0...1))
        // A server that asks for a long wait is told to the person, not slept through.
        guard delay <= policy.maxRetryAfter else { throw failure.error }
        retries += 1
        events.append(.retrying(attempt: retries, limit: policy.maxRetries, delay: delay, reason: failure.summary))
        waitBeforeNextAttempt = delay
    }
}

extension AnswerReader {
    private enum BodyMode {
        case undecided, eventStream, json, error
    }

    private static var bodyLimit: Int { 1 << 20 }

    /// One request and its response. Failures before the answer began throw `AttemptFailure`;
    /// later ones `ChatError`, since text already shown must never be shown twice.
    private final class Attempt {
        private let runner: RequestRunner<Provider>
        private let request: ProviderRequest
        private let diagnostics: RequestDiagnostics
        private let started: UInt64
        /// The transfer; nil once the body is over (dropping it stops the transfer).
        private var parts: HTTPResponseStream.Iterator?
        private var head: HTTPResponseHead?
        private var mode = BodyMode.undecided
        private var collected: [UInt8] = []
        /// The body's first bytes while they are only whitespace (or a BOM), until its kind shows.
        private var start: [UInt8] = []
        private var received = 0
        private var parser = SSEParser()
        private var decoder: Provider.StreamDecoder

        init(runner: RequestRunner<Provider>, request: ProviderRequest) {
            self.runner = runner
            self.request = request
            let http = runner.httpRequest(request)
            diagnostics = runner.diagnostics
            diagnostics.sent(http)
            started = MonotonicClock.nanoseconds()
            decoder = runner.provider.makeStreamDecoder()
            parts = runner.client.send(http).makeAsyncIterator()
        }

        /// Reads what the transfer delivered next and appends its events to `events`: the text
        /// of one read as one event (`TextRun`), also when an error ends it. True while there is
        /// more to read; false once the answer is complete.
        package func read(into events: inout [ChatEvent]) async throws -> Bool {
            guard var iterator = parts else { return false }
            do {
                if let part = try await iterator.next() {
                    parts = iterator
                    try take(part, into: &events)
                    if !(mode == .eventStream && decoder.isDone) { return true }
                    // The rest (the body's last bytes) may arrive unread, to keep the connection.
                    iterator.stopReading()
                }
            } catch let error as ChatError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                let answering = head.map { (200..<300).contains($0.status) } ?? false
                let chatError = runner.transportErrors.error(
                    for: error, midStream: answering, contentEncoding: head?.header("content-encoding"))
                guard !answering else { throw chatError }
                throw AttemptFailure(
                    error: chatError, retryable: TransportErrorMapper.isRetryable(error), retryAfter: nil,
                    summary: String(describing: error).excerpt(limit: 80))
            }
            // The body is over (or the stream said it is done: the rest is not read).
            parts = nil
            try Task.checkCancellation()
            diagnostics.body(received, after: started)
            try finish(into: &events)
            return false
        }

        private func take(_ part: HTTPStreamPart, into events: inout [ChatEvent]) throws {
            switch part {
            case .head(let value):
                head = value
                mode = (200..<300).contains(value.status) ? .undecided : .error
                diagnostics.received(value, after: started)
            case .body(var bytes):
                received += bytes.count
                if mode == .undecided {
                    // The body's first bytes say what it is, whatever its Content-Type says.
                    start.append(contentsOf: bytes)
                    guard let decided = Self.mode(forBodyStart: start) else { return }
                    (mode, bytes, start) = (decided, start, [])
                }
                if mode == .eventStream {
                    try Self.decode(bytes, &parser, &decoder, into: &events)
                } else if collected.count < AnswerReader.bodyLimit {
                    collected.append(contentsOf: bytes)
                }
            }
        }

        /// The events in `bytes`; the text of one read as one event (`TextRun`), also when an
        /// error ends it. Static, with the parser and decoder `inout` for the whole read: a
        /// closure reaching them through `self` would have each event check exclusive access
        /// to the object's fields at run time.
        private static func decode(
            _ bytes: [UInt8], _ parser: inout SSEParser, _ decoder: inout Provider.StreamDecoder,
            into events: inout [ChatEvent]
        ) throws {
            var run = TextRun()
            defer { run.flush { events.append($0) } }
            try parser.push(bytes) { event in
                try decoder.decode(event) { run.add($0) { events.append($0) } }
            }
        }

        /// Runs the provider's sample events through a parser and decoder of their own, and
        /// drops the events.
        static func warmUp(_ provider: Provider) {
            var parser = SSEParser()
            var decoder = provider.makeStreamDecoder()
            var events: [ChatEvent] = []
            try? decode(provider.sampleEvents, &parser, &decoder, into: &events)
        }

        private func finish(into events: inout [ChatEvent]) throws {
            guard let head else { throw ChatError.malformedResponse("the server sent no response") }
            switch mode {
            case .error:
                let detail = runner.provider.errorDetail(in: collected)
                let mapper = HTTPErrorMapper(url: runner.url(for: request), readError: { _ in detail })
                throw AttemptFailure(head: head, error: mapper.error(for: head, body: collected), detail: detail)
            case .json:
                try runner.provider.decodeWhole(collected) { events.append($0) }
            case .eventStream, .undecided:
                parser.finish()
                guard decoder.isComplete else {
                    throw ChatError.streamCut("the connection closed before the answer was complete")
                }
            }
        }

        /// What a 2xx body is, from its first bytes: a JSON value (`{` or `[`: a whole answer,
        /// or an error) or else an event stream; nil while there are only whitespace and a byte
        /// order mark. A label is not trusted: some proxies call an event stream `application/json`.
        private static func mode(forBodyStart bytes: [UInt8]) -> BodyMode? {
            var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            if index == 0 && (bytes == [0xEF] || bytes == [0xEF, 0xBB]) { return nil }
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            guard index < bytes.count else { return nil }
            return bytes[index] == UInt8(ascii: "{") || bytes[index] == UInt8(ascii: "[") ? .json : .eventStream
        }
    }
}
