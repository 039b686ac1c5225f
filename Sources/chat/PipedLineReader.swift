import ChatPresentation

/// `LineReader` for piped input (`printf 'hi\n/exit\n' | chat -i`): plain lines, no prompt.
final class PipedLineReader: LineReader {
    func readLine(prompt: String) -> LineInput {
        guard let line = Swift.readLine(strippingNewline: true) else { return .end }
        return .line(line)
    }

    func remember(_ line: String) {}
}
