// The SSE parser and chunk decoder alone, with no process or network in the way: a synthetic
// answer stream (the shapes Benchmarks/fake_server.py sends) fed in network-sized reads, timed
// with the monotonic clock. Reports MB/s of stream bytes and pieces/s. Two streams: the short
// chunk shape in reads of `--read` bytes (a block-written stream), and OpenAI's full chunk shape
// with each event in a read of its own (as libcurl hands over a stream that sends each event as
// its own HTTP chunk).
//
//   swift run -c release ParserBenchmark [--pieces N] [--size BYTES] [--read BYTES] [--repeat K] [--json]
//
// Each stage runs K times after one warm-up; the median run is reported, with min and max.
@_spi(Benchmarks) import ChatProviders

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32 = 1) -> Never {
    var line = "ParserBenchmark: " + message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(status)
}

struct Options {
    var pieces = 20_000
    var size = 4
    var read = 16_384  // libcurl's CURL_MAX_WRITE_SIZE: the most one write callback delivers
    var repeats = 7
    var json = false
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()[...]
    func number(_ name: String) -> Int {
        guard let text = arguments.popFirst(), let value = Int(text), value > 0 else {
            fail("\(name) needs a whole number above 0", status: 2)
        }
        return value
    }
    while let argument = arguments.popFirst() {
        switch argument {
        case "--pieces": options.pieces = number(argument)
        case "--size": options.size = number(argument)
        case "--read": options.read = number(argument)
        case "--repeat": options.repeats = number(argument)
        case "--json": options.json = true
        default:
            fail("usage: ParserBenchmark [--pieces N] [--size BYTES] [--read BYTES] [--repeat K] [--json]", status: 2)
        }
    }
    return options
}

/// Piece `index` of the answer, as `fake_server.py`'s `piece_text` makes it.
func pieceText(_ index: Int, size: Int) -> String {
    let alphabet = Array("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789")
    let start = (index * 7) % alphabet.count
    return String((0..<size).map { alphabet[(start + $0) % alphabet.count] })
}

/// The events of a stream in OpenAI's full chunk shape, byte for byte as the fake server sends
/// them with `frame=event` (usage asked for): the role chunk, the pieces, the finish, the usage.
func makeFullEvents(pieces: Int, size: Int) -> (events: [[UInt8]], text: Int) {
    func chunk(_ choices: String, usage: String = "null") -> [UInt8] {
        let text =
            "data: {\"id\":\"chatcmpl-BbenchAbCdEfGhIjKlMnOpQrStUvW\",\"object\":\"chat.completion.chunk\","
            + "\"created\":1700000000,\"model\":\"gpt-4o-mini-2024-07-18\",\"service_tier\":\"default\","
            + "\"system_fingerprint\":\"fp_0123456789\",\"choices\":\(choices),\"usage\":\(usage)}\n\n"
        return Array(text.utf8)
    }
    func choice(_ delta: String, finish: String = "null") -> String {
        "[{\"index\":0,\"delta\":\(delta),\"logprobs\":null,\"finish_reason\":\(finish)}]"
    }
    var events = [chunk(choice("{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null}"))]
    var text = 0
    for index in 0..<pieces {
        let piece = pieceText(index, size: size)
        text += piece.utf8.count
        events.append(chunk(choice("{\"content\":\"\(piece)\"}")))
    }
    events.append(chunk(choice("{}", finish: "\"stop\"")))
    events.append(
        chunk(
            "[]",
            usage: "{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":0,\"audio_tokens\":0},"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":0,\"audio_tokens\":0,"
                + "\"accepted_prediction_tokens\":0,\"rejected_prediction_tokens\":0}}"))
    events.append(Array("data: [DONE]\n\n".utf8))
    return (events, text)
}

/// The whole event stream, byte for byte as the fake server sends it (with the usage chunk).
func makeStream(pieces: Int, size: Int) -> (bytes: [UInt8], text: Int) {
    func chunk(_ choices: String, usage: String = "") -> String {
        "data: {\"id\":\"chatcmpl-bench\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
            + "\"model\":\"bench\",\"choices\":\(choices)\(usage)}\n\n"
    }
    var stream = ""
    var text = 0
    for index in 0..<pieces {
        let piece = pieceText(index, size: size)
        text += piece.utf8.count
        stream += chunk("[{\"index\":0,\"delta\":{\"content\":\"\(piece)\"},\"finish_reason\":null}]")
    }
    stream += chunk("[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]")
    stream += chunk(
        "[]", usage: ",\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}")
    stream += "data: [DONE]\n\n"
    return (Array(stream.utf8), text)
}

struct StageResult {
    var name: String
    var seconds: [Double]
    var bytes: Int
    var pieces: Int

    var median: Double { seconds.sorted()[seconds.count / 2] }
    func mbPerSecond(_ s: Double) -> Double { Double(bytes) / s / 1_000_000 }
    func piecesPerSecond(_ s: Double) -> Double { Double(pieces) / s }
}

func run(
    _ stage: StreamDecodingProbe.Stage, reads: [[UInt8]], options: Options, expectedText: Int, extraEvents: Int = 3
) -> [Double] {
    var times: [Double] = []
    let clock = ContinuousClock()
    for round in 0...options.repeats {
        var probe = StreamDecodingProbe(stage: stage)
        let elapsed = clock.measure {
            do {
                for read in reads { try probe.push(read) }
            } catch {
                fail("the stream failed to decode: \(error)")
            }
        }
        let expectedEvents = options.pieces + extraEvents
        guard probe.sseEvents == expectedEvents,
            stage == .parse || (probe.isDone && probe.textEvents == options.pieces && probe.textBytes == expectedText)
        else {
            fail("wrong result (\(probe.sseEvents) events, \(probe.textBytes) text bytes)")
        }
        if round > 0 {  // round 0 warms up
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        }
    }
    return times
}

let options = parseOptions()
let (stream, textBytes) = makeStream(pieces: options.pieces, size: options.size)
let reads: [[UInt8]] = stride(from: 0, to: stream.count, by: options.read).map {
    Array(stream[$0..<min($0 + options.read, stream.count)])
}
let (fullEvents, fullText) = makeFullEvents(pieces: options.pieces, size: options.size)
let results = [
    StageResult(
        name: "SSE parser", seconds: run(.parse, reads: reads, options: options, expectedText: textBytes),
        bytes: stream.count, pieces: options.pieces),
    StageResult(
        name: "SSE parser + chunk decoder",
        seconds: run(.parseAndDecode, reads: reads, options: options, expectedText: textBytes),
        bytes: stream.count, pieces: options.pieces),
    StageResult(
        name: "SSE parser + chunk decoder, full chunk shape, one event per read",
        seconds: run(.parseAndDecode, reads: fullEvents, options: options, expectedText: fullText, extraEvents: 4),
        bytes: fullEvents.reduce(0) { $0 + $1.count }, pieces: options.pieces),
]

func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    }
    return text
}

if options.json {
    let entries = results.map { result -> String in
        let sorted = result.seconds.sorted()
        return "{\"stage\":\"\(result.name)\",\"bytes\":\(result.bytes),\"pieces\":\(result.pieces),"
            + "\"seconds\":[\(sorted.map { String($0) }.joined(separator: ","))],"
            + "\"median_s\":\(result.median),"
            + "\"mb_per_s\":\(result.mbPerSecond(result.median)),"
            + "\"pieces_per_s\":\(result.piecesPerSecond(result.median))}"
    }
    print("{\"read\":\(options.read),\"repeat\":\(options.repeats),\"stages\":[\(entries.joined(separator: ","))]}")
} else {
    print(
        "\(options.pieces) pieces of \(options.size) bytes, \(stream.count) stream bytes in reads of "
            + "\(options.read) bytes; median of \(options.repeats) (min–max)")
    for result in results {
        let sorted = result.seconds.sorted()
        let (fast, slow) = (sorted.first ?? 0, sorted.last ?? 0)
        print(
            "\(result.name): \(fixed(result.mbPerSecond(result.median), 1)) MB/s "
                + "(\(fixed(result.mbPerSecond(slow), 1))–\(fixed(result.mbPerSecond(fast), 1))), "
                + "\(fixed(result.piecesPerSecond(result.median) / 1000, 1))k pieces/s, "
                + "\(fixed(result.median * 1000, 2)) ms per stream")
    }
}
