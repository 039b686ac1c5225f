import ChatDomain
import Testing

@testable import ChatHTTP

/// What a stream gives a provider's decoder: its events (text and reasoning that came in pieces
/// joined), the error that ended it, and whether it was complete.
struct DecodedStream: Equatable {
    var events: [ChatEvent] = []
    var error: ChatError?
    var complete = false
}

/// A provider's stream decoder fed through `SSEParser` whole, split in two at every byte
/// boundary and byte by byte: the events must never depend on how the bytes arrived.
struct SplitStreamDecoding<Decoder: StreamEventDecoder>: Sendable {
    /// A new decoder.
    let make: @Sendable () -> Decoder

    /// `stream` fed in the pieces `cuts` make, stopping at the first error as the engine does.
    func decode(_ stream: String, cuts: [Int]) -> DecodedStream {
        let bytes = Array(stream.utf8)
        var parser = SSEParser()
        var decoder = make()
        var outcome = DecodedStream()
        var start = 0
        do {
            for end in cuts + [bytes.count] {
                try parser.push(bytes[start..<end]) { event in
                    try decoder.decode(event) { outcome.events.append($0) }
                }
                start = end
            }
        } catch {
            outcome.error = error as? ChatError
        }
        parser.finish()
        outcome.events = Self.joined(outcome.events)
        outcome.complete = decoder.isComplete
        return outcome
    }

    /// `stream` decoded whole, then split at every byte boundary and byte by byte: each `expected`.
    func expectSameAtEverySplit(_ stream: String, _ expected: DecodedStream) {
        #expect(decode(stream, cuts: []) == expected)
        let count = stream.utf8.count
        for cut in 1..<count {
            let outcome = decode(stream, cuts: [cut])
            if outcome != expected {
                Issue.record("split at byte \(cut): \(outcome)")
                return
            }
        }
        #expect(decode(stream, cuts: Array(1..<count)) == expected)
    }

    /// `events` with neighbouring text (and reasoning) pieces joined into one.
    static func joined(_ events: [ChatEvent]) -> [ChatEvent] {
        var result: [ChatEvent] = []
        for event in events {
            switch (result.last, event) {
            case (.text(let text)?, .text(let more)): result[result.count - 1] = .text(text + more)
            case (.reasoning(let text)?, .reasoning(let more)): result[result.count - 1] = .reasoning(text + more)
            default: result.append(event)
            }
        }
        return result
    }
}
