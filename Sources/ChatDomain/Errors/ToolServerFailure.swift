/// What went wrong with a tool server (MCP) or one request to it, as facts. A server's own words
/// are held made safe (one line, cut, any secret of the config taken out).
public enum ToolServerFailure: Error, Sendable, Equatable {
    /// Its entry in the config cannot be used.
    case entry(ToolServerEntryProblem)
    /// No pipe could be made to a server to start.
    case noPipe
    /// Its command could not be started; the system's reason.
    case couldNotStart(command: String, reason: String)
    /// It ended: its output closed.
    case ended
    /// It could not be written to: it has ended.
    case notWritable
    /// It sent a message longer than chat reads (this many MB), and was stopped.
    case messageTooLong(megabytes: Int)
    /// Its answer to `initialize` names no protocol version.
    case noProtocolVersion
    /// It speaks a protocol version chat does not.
    case unsupportedProtocol(version: String)
    /// It answered the request with an error; its message.
    case serverError(String)
    /// No answer came within this many seconds.
    case noAnswer(seconds: Double)
    /// The person cancelled the call.
    case cancelled
    /// Chat stopped the server (the run ended) while the request waited.
    case stopped
    /// The tool's server is not running (it could not start, or was stopped).
    case notRunning
    /// The request could not be written as JSON.
    case requestNotWritten
    /// A tool left out: it would be offered under `offeredAs`, a name `takenBy`'s tool has.
    case nameTaken(tool: String, offeredAs: String, takenBy: ToolOrigin)
    /// Over HTTP: it answered with this status, and the start of its body.
    case httpStatus(Int, body: String)
    /// Over HTTP: the answer ended before it began.
    case emptyAnswer
    /// Over HTTP: the answer has this media type (nil: none), not JSON or an event stream.
    case notJSON(mediaType: String?)
    /// Over HTTP: the transfer failed, as the engine says (refused, a certificate, a timeout…).
    case transfer(ChatError)
    /// Over HTTP: the request was stopped before its answer.
    case requestStopped
    /// Over HTTP: its answer, or one event of it, is longer than chat reads (this many MB).
    case answerTooLong(megabytes: Int, event: Bool)
    /// Over HTTP: its answer is not JSON.
    case answerNotJSON
    /// Over HTTP: its answer holds no response to the request.
    case noResponse
    /// Over HTTP: its event stream ended before the response.
    case streamEndedEarly
    /// Over HTTP: its session ended (404), and could not be opened again (`again`: it ended
    /// once more after being opened again).
    case sessionEnded(again: Bool)
    /// Over HTTP: it needs a sign-in (OAuth) that chat could not settle during the run (no
    /// terminal, declined, a refresh refused…): its tools are left out.
    case signInNeeded(SignInFailure)
    /// It asked for more input (`input_required`) more than this many times in a row: given up.
    case inputRounds(Int)
    /// It asked, during a request, for something chat does not answer (`sampling/createMessage`,
    /// `roots/list`: this method).
    case unansweredRequest(method: String)
    /// A tool's `structuredContent` does not match the tool's `outputSchema`.
    case structuredMismatch(SchemaMismatch)
    /// Its answer has a `resultType` chat does not know (this one).
    case unknownResultType(String)
    /// It does not offer this (`prompts`, `resources`): its capabilities do not declare it.
    case notOffered(String)
    /// The answer to a tool call broke off before its result: the tool may have run, and was not
    /// run again.
    case callInterrupted

    /// Whether the server itself is gone (it ended, or broke its output): a problem of the
    /// server's, not only of the request.
    public var serverGone: Bool {
        switch self {
        case .ended, .notWritable, .messageTooLong: true
        default: false
        }
    }
}

/// What is wrong with a tool server's entry in the config (`mcp_servers`); the server is left
/// out, or (`autoApprove`) its tools are asked about.
public enum ToolServerEntryProblem: Error, Sendable, Equatable {
    /// `mcp_servers` is not an object of servers by name.
    case serversNotAnObject
    /// The entry is not an object.
    case notAnObject
    /// It has neither a command nor a url.
    case noCommand
    /// It has both a command and a url.
    case commandAndURL
    /// This key (`args`) is not a list of strings.
    case notAListOfStrings(key: String)
    /// This key (`env`, `headers`) is not an object of strings.
    case notAnObjectOfStrings(key: String)
    /// `url` is not a string.
    case urlNotAString
    /// `url` does not start with `http://` or `https://`.
    case urlScheme
    /// `timeout` is not a number of seconds above 0.
    case timeout
    /// A header name or value holds a line break.
    case headerLineBreak
    /// `${NAME}` is used but the variable is not set.
    case variableNotSet(String)
    /// `oauth` is not an object of `client_id`, `client_secret` (strings) and `scopes` (a list
    /// of strings).
    case oauth
    /// `client_metadata_url` is not an https URL.
    case clientMetadataURL
    /// `auto_approve` is neither true nor a list of tool names: its tools will be asked about.
    case autoApprove
    /// `protocol_version` is not one of the versions chat speaks (these).
    case protocolVersion(known: [String])
}
