import ChatDomain

/// The one line a person reads for an error: what happened and, where it helps, what to do,
/// naming the flags, commands, settings and environment variables that do it. The only place
/// errors are worded; the domain's errors carry facts only.
public enum ErrorWording {
    /// The line for a failed request. Every text the server chose (its messages, a quoted chunk,
    /// a header value) is shown as `ServerText` makes it: no control characters or escape
    /// sequences, one line, cut to a sensible length.
    public static func line(for error: ChatError) -> String {
        switch error.withServerTextCleaned {
        case .unauthorized(let message):
            return
                "401 unauthorized: \(message) (check your API key: OPENAI_API_KEY, ANTHROPIC_API_KEY for the "
                + "anthropic provider, or the config's api_key_* settings)"
        case .forbidden(let message):
            return "403 forbidden: \(message) (your API key may not use this model or endpoint)"
        case .notFound(let url, let message, let clue):
            return "404 not found at \(url): \(message) (\(advice(for: clue)))"
        case .rateLimited(let retryAfter, let quotaExceeded, let message):
            if quotaExceeded {
                return "429 quota exceeded: \(message) (check your plan and billing; waiting will not help)"
            }
            let wait =
                retryAfter.map { " (the server asks to wait \(seconds($0)))" } ?? " (wait a moment and try again)"
            return "429 rate limited: \(message)\(wait)"
        case .badRequest(let status, let message)
        where message.contains("response_format") || message.contains("json_schema"):
            // Only a request with a schema (`--schema`) has a `response_format` to reject.
            return "\(status) bad request: \(message) (this server does not take a JSON schema; try without --schema)"
        case .badRequest(let status, let message) where ContextOverflow.refused(error):
            return "\(status) bad request: \(message) (the conversation is longer than the model's context window: "
                + "/compact in the REPL summarises it; auto_compact does so by itself where the window is known, "
                + "set it with max_context_tokens)"
        case .badRequest(let status, let message) where message.lowercased().contains("effort"):
            // `reasoning_effort`, `reasoning.effort`, `output_config.effort`: `--effort` (or a
            // config's `effort`) sends one, and a proxy may make one of `--thinking`'s budget.
            return "\(status) bad request: \(message) (the server refused the reasoning asked for: "
                + "try another --effort level, or leave effort and thinking out)"
        case .badRequest(let status, let message):
            return "\(status) bad request: \(message)"
        case .server(let status, let message):
            return "\(status) server error: \(message)"
        case .connection(let failure, let message):
            return "connection failed: " + connectionLine(failure, message)
        case .connectTimeout(let value):
            return "could not connect within \(seconds(value)) (raise it with --connect-timeout)"
        case .idleTimeout(let value):
            return "no data from the server for \(seconds(value)); gave up (raise it with --idle-timeout)"
        case .streamError(let message):
            return "the server reported an error: \(message)"
        case .overloaded(let message):
            return "the server is overloaded: \(message) (try again in a moment; the config's fallback can name "
                + "profiles to ask instead)"
        case .streamCut(let message):
            return "the answer was cut off: \(message)"
        case .malformedResponse(let message):
            return "unexpected response from the server: \(message)"
        case .unsupportedEncoding(let encoding):
            return
                "the server compressed its answer as \"\(encoding)\", which chat cannot decode (chat asks for an "
                + "uncompressed answer; a proxy in between may be compressing it)"
        case .unsupportedSetting(let name, let provider):
            let flag = "--" + String(name.map { $0 == "_" ? "-" : $0 })
            return
                "the \(provider) provider takes no \(name): leave it out for this provider (\(flag), or \(name) in the "
                + "config or the role)"
        case .unsupportedSettings(let name, let other, let provider):
            return "the \(provider) provider takes no \(name) together with \(other): leave one of them out"
        case .requestTooLarge(let file, let fileBytes, let bytes, let limit, let provider):
            return
                "\(ServerText.line(file, limit: 200)) is \(megabytes(fileBytes)) once base64-encoded, and the request "
                + "carrying it \(megabytes(bytes)), over the \(megabytes(limit)) the \(provider) provider takes in one "
                + "request: nothing was sent (attach a smaller file, or set pdf to text to send a PDF's text)"
        case .budgetReached(let spent, let limit):
            return "this run has spent \(Dollars.text(spent)) of its \(Dollars.text(limit)) budget: the request was "
                + "not sent (raise it with --max-cost, or max_cost in the config)"
        case .toolRoundLimit(let rounds):
            return
                "the model asked for tools again after \(rounds) round\(rounds == 1 ? "" : "s") of tool calls; stopped "
                + "there: raise max_tool_rounds in the config, or give --max-tool-rounds N"
        case .cancelled:
            return "interrupted"
        }
    }

    /// The line for stored conversations that could not be used.
    public static func line(for error: StorageError) -> String {
        switch error {
        case .file(let path, .read, let reason):
            return "cannot read \(path): \(reason)"
        case .file(let path, .write, let reason):
            return "cannot write \(path): \(reason)"
        case .missingFile(let path):
            return "\(path) does not exist"
        case .newerFile(let path, let version):
            return "\(path) was written by a newer chat (version \(version))"
        case .unknownRole(let message, let role):
            return "message \(message) has an unknown role \"\(role)\""
        case .unencodable(let reason):
            return "could not encode the conversation: \(reason)"
        case .notAConversation(let path, nil):
            return "\(path) is not a conversation saved by chat (/save writes one)"
        case .notAConversation(let path, let format?):
            return "\(path) is not a conversation saved by chat (format \"\(format)\")"
        case .notFound(let id):
            return "no conversation \(id) (chat --list shows them)"
        case .ambiguous(let id, let matches):
            return "\(id) could be \(matches.prefix(5).joined(separator: ", ")); give more of the id"
        case .database(let failure):
            return "history: " + describe(failure)
        }
    }

    /// What failed in the history database, and why.
    private static func describe(_ failure: DatabaseFailure) -> String {
        switch failure.step {
        case .creatingDirectory(let path):
            return "cannot create \(path): \(failure.reason)"
        case .securingDirectory(let path):
            return "cannot make \(path) private (this user's, mode 0700): \(failure.reason)"
        case .opening(let path):
            return "cannot open \(path): \(failure.reason)"
        case .using:
            return failure.reason
        }
    }

    /// The line for what the history tells while the chat goes on.
    public static func line(for notice: HistoryNotice) -> String {
        switch notice {
        case .notStored(let failure) where failure.step == .using:
            return "history: could not save (\(failure.reason)); the conversation goes on and is stored as soon as "
                + "a write succeeds"
        case .notStored(let failure):
            return "history: \(describe(failure)); the conversation goes on and is stored as soon as a write succeeds"
        case .salvaged(let salvage):
            return salvaged(salvage)
        }
    }

    /// The line for messages a run ended without storing: kept in `file` instead, or, when
    /// that could not be written either, lost for `fileFailure`.
    public static func unstoredLine(_ unstored: UnstoredMessages, keptIn file: String?, fileFailure: String?) -> String
    {
        let what = "history: \(Counted.text(unstored.count, "message")) not stored (\(describe(unstored.failure)))"
        if let file {
            return "\(what); the conversation is kept in \(file) instead (/load it in chat -i to go on)"
        }
        return "\(what), and not kept elsewhere either (\(fileFailure ?? "no temporary directory"))"
    }

    /// The REPL's line, before it ends, for messages the history still could not store.
    public static func unstoredOffer(_ unstored: UnstoredMessages) -> String {
        "history: \(Counted.text(unstored.count, "message")) not stored (\(describe(unstored.failure))): "
            + "/save FILE keeps the conversation; /exit again leaves without it"
    }

    private static func salvaged(_ salvage: HistorySalvage) -> String {
        // "41 conversations recovered, 1 recovered in part, 2 could not be read": the first
        // count named, the others after it; counts of none left out, unless all are none.
        let counts = [
            (salvage.recovered, "recovered"), (salvage.partlyRecovered, "recovered in part"),
            (salvage.unreadable, "could not be read"),
        ].filter { $0.0 > 0 }
        var words = counts.enumerated().map { index, count in
            index == 0 ? "\(Counted.text(count.0, "conversation")) \(count.1)" : "\(count.0) \(count.1)"
        }
        if words.isEmpty { words = ["no conversation recovered"] }
        return "history: the database was damaged and a new one started: \(words.joined(separator: ", ")); "
            + "the damaged file is kept as \(salvage.damagedPath)"
    }

    /// The line for files that could not be attached.
    public static func line(for error: AttachmentError) -> String {
        switch error {
        case .notFound(let path):
            return "\(path): no such file"
        case .directory(let path):
            let pattern = (path.hasSuffix("/") ? path : path + "/") + "*"
            return
                "\(path) is a directory: attach its files with a glob, e.g. -f '\(pattern)' (quoted, chat expands it)"
        case .noMatch(let pattern):
            return "no file matches \(pattern)"
        case .web(let failure):
            return line(for: failure)
        case .binary(let path):
            return
                "\(path) is a binary file: only text files, PDFs and PNG, JPEG, GIF or WebP images can be attached"
        case .tooMuchText(let bytes, let limit):
            return
                "the attached files hold \(ByteCount.text(bytes)) of text, over the \(ByteCount.text(limit)) a message "
                + "may carry (max_file_bytes in the config)"
        case .imageTooLarge(let path, let bytes, let limit):
            return "\(path) is \(ByteCount.text(bytes)), over the \(ByteCount.text(limit)) an image may be"
        case .imageNotTaken(let path):
            return
                "\(path) is an image, and this profile's model takes no images (images: false in the config): use "
                + "a profile whose model does, e.g. --profile NAME, or set images to true in this profile"
        case .pdfTooLarge(let path, let bytes, let limit):
            return "\(path) is \(ByteCount.text(bytes)), over the \(ByteCount.text(limit)) a PDF may be"
        case .pdfToTextMissing(let path):
            return
                "\(path) is a PDF to send as text (pdf: text), and pdftotext is not on the PATH: install poppler-utils "
                + "(apt-get install poppler-utils, or brew install poppler), or set pdf to native to send the file"
        case .pdfUnreadable(let path, let reason):
            return "cannot read the text of the PDF \(path): \(reason)"
        case .standardInputUnavailable:
            return
                "- (standard input) can be attached only from the command line, with text piped in: cat x | chat -f - …"
        case .unreadable(let path, let reason):
            return "cannot read \(path): \(reason)"
        }
    }

    /// `bytes` in decimal megabytes to a tenth (`43.7 MB`), as the providers state their limits.
    private static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes + 50_000) / 100_000
        return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
    }

    private static func advice(for clue: NotFoundClue) -> String {
        switch clue {
        case .messageNamesModel: return "check the model name: chat --models lists them"
        case .urlLacksV1: return "the base URL may be missing /v1, e.g. http://localhost:11434/v1"
        case .unknown: return "is the base URL right?"
        }
    }

    static func connectionLine(_ failure: ConnectionFailure, _ message: String) -> String {
        switch failure {
        case .proxy(let proxy):
            return "through the proxy \(proxy): \(message) (check the proxy, or unset it)"
        case .proxyNotFound:
            return "\(message) (check the proxy setting: proxy in the config, or https_proxy/HTTPS_PROXY/ALL_PROXY)"
        case .hostNotFound:
            return "\(message) (check the host name in the base URL)"
        case .refused:
            return "\(message) (is the server running, and is the base URL's port right?)"
        case .tls:
            return "\(message) (the TLS handshake failed; check the URL's scheme and the server's certificate)"
        case .certificate(let trustStore):
            return
                "\(message) (checked with \(trustStore ?? "the system's trust store"); to trust a private CA, such as "
                + "a company proxy's or a self-hosted gateway's, give its certificate with --ca-cert FILE, ca_cert "
                + "in the config, or SSL_CERT_FILE)"
        case .clientCertificateWanted:
            return
                "\(message) (the server wants a client certificate: give it with --client-cert FILE and "
                + "--client-key FILE, or client_cert and client_key in the config)"
        case .other:
            return message
        }
    }

    /// The note shown on a terminal when a request is sent again, e.g.
    /// `retrying in 1.5 s (1/2): 503 Service Unavailable`; the reason (which may quote the server)
    /// shown as `ServerText` makes it.
    public static func retryNote(attempt: Int, limit: Int, delay: Double, reason: String) -> String {
        let tenths = Int((delay * 10).rounded())
        return
            "retrying in \(tenths / 10).\(tenths % 10) s (\(attempt)/\(limit)): \(ServerText.line(reason, limit: 80))"
    }

    /// The note when parts of the conversation were sent to `provider` as text.
    /// The note for what a provider changed of a request.
    public static func line(for notice: RequestNotice) -> String {
        switch notice {
        case .budgetAsEffort(let tokens, let effort, let model):
            return
                "\(ServerText.line(model, limit: 60)) takes an effort, not a thinking budget: --thinking \(tokens) was "
                + "asked for as --effort \(effort.rawValue)"
        case .costUnknown(let model):
            return "what \(ServerText.line(model, limit: 60)) costs is not known (no price, or no usage reported), "
                + "so the budget cannot be kept exactly: add it to prices in the config"
        case .mayThinkUnasked(let model):
            return
                "--effort none asks \(ServerText.line(model, limit: 60)) for no thinking, but it decides for itself "
                + "and may still think"

        case .compacted(let messages, let window):
            return "the conversation neared the model's context window (\(Counted.text(window, "token"))): "
                + "\(Counted.text(messages, "message")) from its start were summarised, and requests now carry the "
                + "summary in their place (the history keeps them all)"
        case .budgetSpent(let spent, let limit):
            return "this run has spent \(Dollars.text(spent)) of its \(Dollars.text(limit)) budget"
        case .overWindow(let window):
            return "the conversation is longer than the model's context window (\(Counted.text(window, "token"))) and "
                + "nothing before this question is left to summarise: it is sent as it is"
        }
    }

    public static func sentAsTextNote(provider: String) -> String {
        "the \(provider) provider cannot take some parts of this conversation as they are (tool calls and results "
            + "with no tools offered now, or another provider's calls or thinking): they were sent to it as text"
    }

    /// The line for a stream that broke (a reset, an idle timeout, a cut body) after `characters`
    /// of the answer were shown, and was not resumed: where it broke and why; nil for any other
    /// error.
    public static func brokenLine(for error: ChatError, after characters: Int) -> String? {
        switch error {
        case .connection, .idleTimeout, .streamCut:
            return
                "the answer broke off after \(characters) character\(characters == 1 ? "" : "s"): \(line(for: error))"
        default:
            return nil
        }
    }

    /// The note when an answer went to the next profile of `fallback`: which one failed, how,
    /// and which one (and model) is asked instead.
    public static func fallbackNote(from: String?, to: String, model: String, after error: ChatError) -> String {
        let failed = from.map { "profile \($0)" } ?? "the server"
        return "\(failed) failed (\(line(for: error).excerpt(limit: 120))); asking profile \(to) (\(model)) instead"
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension ChatError {
    /// This error with every text in it as `ServerText` shows it.
    fileprivate var withServerTextCleaned: ChatError {
        func clean(_ text: String) -> String { ServerText.line(text) }
        switch self {
        case .unauthorized(let message): return .unauthorized(message: clean(message))
        case .forbidden(let message): return .forbidden(message: clean(message))
        case .notFound(let url, let message, let clue):
            return .notFound(url: clean(url), message: clean(message), clue: clue)
        case .rateLimited(let retryAfter, let quotaExceeded, let message):
            return .rateLimited(retryAfter: retryAfter, quotaExceeded: quotaExceeded, message: clean(message))
        case .badRequest(let status, let message): return .badRequest(status: status, message: clean(message))
        case .server(let status, let message): return .server(status: status, message: clean(message))
        case .connection(let failure, let message): return .connection(failure, message: clean(message))
        case .streamError(let message): return .streamError(message: clean(message))
        case .overloaded(let message): return .overloaded(message: clean(message))
        case .streamCut(let message): return .streamCut(clean(message))
        case .malformedResponse(let message): return .malformedResponse(clean(message))
        case .unsupportedEncoding(let encoding): return .unsupportedEncoding(ServerText.line(encoding, limit: 40))
        case .connectTimeout, .idleTimeout, .unsupportedSetting, .unsupportedSettings, .toolRoundLimit, .budgetReached,
            .requestTooLarge, .cancelled:
            return self
        }
    }
}
