import ChatDomain
import ChatHTTP

/// The streaming hot path, bytes to `ChatEvent`s, with no process or network around it: what
/// the engine (`RequestRunner`) does with each body part of an OpenAI answer (`SSEParser.push`,
/// then `ChatStreamDecoder.decode` per event). Only for `Benchmarks/ParserBenchmark`.
///
/// SPI, so it is not part of ChatData's API: only `@_spi(Benchmarks) import ChatData` sees it,
/// and the parser and decoder themselves stay internal.
@_spi(Benchmarks) public struct StreamDecodingProbe {
    /// How far each event goes.
    public enum Stage: Sendable {
        /// Bytes to Server-Sent Events only.
        case parse
        /// Bytes to events to chunks to `ChatEvent`s, as in a real answer.
        case parseAndDecode
    }

    private let stage: Stage
    private var parser = SSEParser()
    private var decoder = ChatStreamDecoder()
    /// Server-Sent Events dispatched so far, and the bytes of their data.
    public private(set) var sseEvents = 0
    public private(set) var dataBytes = 0
    /// `.text` events so far (`.parseAndDecode` only), and the UTF-8 bytes of their text.
    public private(set) var textEvents = 0
    public private(set) var textBytes = 0

    public init(stage: Stage) {
        self.stage = stage
    }

    /// `[DONE]` arrived.
    public var isDone: Bool { decoder.isDone }

    /// Feeds the next bytes, as one network read would deliver them.
    public mutating func push(_ bytes: [UInt8]) throws {
        switch stage {
        case .parse:
            parser.push(bytes) { event in
                sseEvents += 1
                dataBytes += event.data.count
            }
        case .parseAndDecode:
            try parser.push(bytes) { event in
                sseEvents += 1
                dataBytes += event.data.count
                try decoder.decode(event) { chatEvent in
                    if case .text(let piece) = chatEvent {
                        textEvents += 1
                        textBytes += piece.utf8.count
                    }
                }
            }
        }
    }
}
