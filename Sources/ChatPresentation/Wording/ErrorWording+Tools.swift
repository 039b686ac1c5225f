import ChatDomain

extension ErrorWording {
    /// The line for a problem with a tool server: the server, what went wrong (an HTTP server's
    /// endpoint first), and where its log is. Everything the server or the config chose is
    /// shown made safe.
    public static func line(for problem: ToolServerProblem) -> String {
        let named = problem.server.isEmpty ? "" : "MCP server \"\(ServerText.line(problem.server, limit: 60))\": "
        let place = problem.endpoint.map { ServerText.line($0, limit: 200) + ": " } ?? ""
        let log = problem.log.map { " (its log: \($0))" } ?? ""
        return named + place + reason(problem.failure, of: problem.server) + log
    }

    /// What the model is told of a call its server gave no result for.
    public static func text(for failure: ToolServerFailure) -> String {
        reason(failure, of: nil)
    }

    /// What went wrong, without naming the server: the words a problem line and the model share.
    /// `server` is the one the problem is about, if known.
    private static func reason(_ failure: ToolServerFailure, of server: String?) -> String {
        switch failure {
        case .entry(let problem): return text(problem)
        case .noPipe: return "could not create a pipe"
        case .couldNotStart(let command, let reason):
            return "could not start \(ServerText.line(command, limit: 120)): \(reason)"
        case .ended: return "the server ended (its output closed)"
        case .notWritable: return "could not write to the server: it has ended"
        case .messageTooLong(let megabytes): return "the server sent a message over \(megabytes) MB"
        case .noProtocolVersion: return "its answer to initialize names no protocol version"
        case .unsupportedProtocol(let version): return "it speaks MCP \(version), which chat does not"
        case .serverError(let message): return message
        case .noAnswer(let value): return "no answer within \(seconds(value))"
        case .cancelled: return "the user cancelled this tool call"
        case .stopped: return "the server was stopped"
        case .notRunning: return "its server is not running"
        case .requestNotWritten: return "could not write the request"
        case .nameTaken(let tool, let offeredAs, let owner):
            return
                "its tool \"\(ServerText.line(tool, limit: 80))\" is left out: it would be offered as \(offeredAs), "
                + "the name \(owner.server == server ? "its" : "server \"\(ServerText.line(owner.server, limit: 60))\"'s") "
                + "tool \"\(ServerText.line(owner.tool, limit: 80))\" has"
        case .httpStatus(let status, let body): return "it answered HTTP \(status)" + (body.isEmpty ? "" : ": \(body)")
        case .emptyAnswer: return "the answer ended before it began"
        case .notJSON(let mediaType): return "it answered with \(mediaType ?? "no content type"), not JSON"
        case .transfer(.connection(let failure, let message)): return connectionLine(failure, ServerText.line(message))
        case .transfer(let error): return line(for: error)
        case .requestStopped: return "the request was stopped"
        case .answerTooLong(let megabytes, let event):
            return event ? "it sent an event over \(megabytes) MB" : "its answer is over \(megabytes) MB"
        case .answerNotJSON: return "its answer is not JSON"
        case .noResponse: return "its answer is not the response to the request"
        case .streamEndedEarly: return "its event stream ended without the response"
        case .sessionEnded(let again): return "its session ended\(again ? " again" : "") (HTTP 404)"
        case .signInNeeded(let failure): return signInNeeded(failure, server: server)
        case .inputRounds(let rounds): return "it asked for more input over \(rounds) times in a row; given up"
        case .unansweredRequest(let method): return "it asked for \(method), which chat does not answer"
        case .structuredMismatch(let mismatch):
            return line(for: mismatch, subject: "the tool's structured result", schema: "its outputSchema")
        case .unknownResultType(let type): return "its answer is of a kind chat does not know (resultType \(type))"
        case .notOffered(let what): return "it offers no \(what)"
        case .callInterrupted:
            return "the server's answer broke off before the result: the tool may have run, and was not run again"
        }
    }

    private static func text(_ problem: ToolServerEntryProblem) -> String {
        switch problem {
        case .serversNotAnObject: "mcp_servers must be an object of servers by name"
        case .notAnObject: "its entry must be an object"
        case .noCommand: "its entry has no command"
        case .commandAndURL: "its entry has both a command and a url"
        case .notAListOfStrings(let key): "\(key) must be a list of strings"
        case .notAnObjectOfStrings(let key): "\(key) must be an object of strings"
        case .urlNotAString: "url must be a string"
        case .urlScheme: "url must start with http:// or https://"
        case .timeout: "timeout must be a number of seconds above 0"
        case .headerLineBreak: "a header name or value holds a line break"
        case .variableNotSet(let name): "${\(ServerText.line(name, limit: 60))} is used but not set in the environment"
        case .autoApprove: "auto_approve must be true or a list of its tool names; its tools will be asked about"
        case .protocolVersion(let known):
            "protocol_version must be one of the MCP versions chat speaks: \(known.joined(separator: ", "))"
        case .oauth:
            "oauth must be an object with client_id and client_secret (strings) and scopes (a list of strings)"
        case .clientMetadataURL: "client_metadata_url must be an https:// URL"
        }
    }
}
