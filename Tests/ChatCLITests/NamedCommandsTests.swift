import ChatDomain
import ChatPresentation
import Foundation
import Testing

@testable import chat

/// Messages that send people to a flag or a command name one that exists: every `--flag` and
/// `/command` in every error line chat words is one `chat --help` or `/help` lists.
@Suite struct NamedCommandsTests {
    /// One error of every kind, with every clue, the words each carries.
    static let errors: [ChatError] = [
        .unauthorized(message: "m"), .forbidden(message: "m"),
        .notFound(url: "u", message: "m", clue: .messageNamesModel),
        .notFound(url: "u", message: "m", clue: .urlLacksV1),
        .notFound(url: "u", message: "m", clue: .unknown),
        .rateLimited(retryAfter: 1, quotaExceeded: false, message: "m"),
        .rateLimited(retryAfter: nil, quotaExceeded: true, message: "m"), .badRequest(status: 400, message: "m"),
        .server(status: 500, message: "m"), .connection(.refused, message: "m"),
        .connection(.hostNotFound, message: "m"),
        .connection(.proxyNotFound, message: "m"), .connection(.tls, message: "m"),
        .connection(.certificate(trustStore: nil), message: "m"), .connection(.clientCertificateWanted, message: "m"),
        .connection(.proxy("p"), message: "m"), .connection(.other, message: "m"), .connectTimeout(seconds: 1),
        .idleTimeout(seconds: 1), .streamError(message: "m"), .streamCut("m"), .malformedResponse("m"),
        .unsupportedEncoding("xz"), .cancelled,
    ]

    @Test func everyFlagAndCommandAnErrorNamesExists() {
        let help = HelpText.text
        let commands = Set(REPL.commandNames)
        for line in Self.errors.map(ErrorWording.line(for:)) {
            for flag in Self.words(in: line, starting: "--") {
                #expect(help.contains(flag), "\(line) names \(flag), which chat --help does not list")
            }
            for command in Self.words(in: line, starting: "/") {
                #expect(commands.contains(command), "\(line) names \(command), which /help does not list")
            }
        }
    }

    /// The words of `text` that are `prefix` and a name (letters and dashes), punctuation around
    /// them left off: `--ca-cert`, `/models`, not `/v1`.
    private static func words(in text: String, starting prefix: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "(" }).compactMap { word in
            let name = word.drop { $0 == "(" }.reversed().drop { ",.;:)?!".contains($0) }.reversed()
            let rest = String(name).dropFirst(prefix.count)
            guard String(name).hasPrefix(prefix), rest.first?.isLetter == true,
                rest.allSatisfy({ $0.isLetter || $0 == "-" })
            else { return nil }
            return String(name)
        }
    }
}
