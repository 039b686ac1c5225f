import ChatDomain
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A seeded random property test of `SSEParser` and `ChatStreamDecoder`, driven the way
/// the engine (`AnswerReader`) drives them: bytes pushed as they arrive, each event decoded, stop at
/// the first error or at `[DONE]`.
///
/// Inputs: random bytes; random bytes from an event-stream alphabet; valid chunk streams
/// (text, reasoning, finish, usage, `[DONE]`, every error shape, comments, ids, multi-line data,
/// LF/CR/CRLF endings, a BOM, chunks with unused fields of any type, repeated keys and lone
/// surrogates), then randomly mutated (truncated, CR/LF/CRLF/BOM/invalid UTF-8/
/// JSON-ish garbage injected, bytes replaced, ranges deleted or doubled); huge lines; deeply
/// nested JSON and errors. Each input is fed whole, byte by byte (when short) and split at
/// random points (empty pieces included).
///
/// Properties (`StreamProperties`, shared with the libFuzzer target in `Fuzz/`, see
/// `scripts/fuzz`): nothing crashes or hangs (an input that runs over 20 s ends the run, naming
/// its seed; the default run has a one-minute limit); the parser's events and the decoder's
/// events, error, `isDone` and `isComplete` are the same however the input is split; the parser
/// agrees with a plain reading of the spec on the whole input; each event's data is read alike
/// by `JSONParser` and `ReferenceJSON`, and by the decoder's reading of a chunk and
/// `ReferenceChunk` (the decoding rules read plainly), and through the last chunk's `JSONShape`
/// as in full; the decoder throws only `ChatError.streamError` or `.malformedResponse`.
///
/// The run is reproducible: a fixed seed (printed with any failure) and SplitMix64.
/// - `CHAT_FUZZ_ITERATIONS=N` runs N inputs instead of the default 200 (about a second);
///   e.g. `CHAT_FUZZ_ITERATIONS=200000 swift test --filter StreamFuzzTests`.
/// - `CHAT_FUZZ_SEED=S` starts from seed S (decimal or 0x hex) instead of the fixed one; a
///   failure names the seed of the failing input, which reruns just that input with
///   `CHAT_FUZZ_ITERATIONS=1`.
@Suite struct StreamFuzzTests {
    static let defaultSeed: UInt64 = 0x5EED_C4A7_F022_0001
    static let defaultIterations = 200

    static let iterations =
        ProcessInfo.processInfo.environment["CHAT_FUZZ_ITERATIONS"].flatMap { Int($0) } ?? defaultIterations

    // The limit is a backstop for the whole run (long runs get a day); a hang in one input is
    // caught sooner by the watchdog, which names its seed.
    @Test(.timeLimit(.minutes(iterations <= defaultIterations ? 1 : 24 * 60)))
    func anyStreamSplitAnywhereGivesTheSameOutcome() async {
        let base = ProcessInfo.processInfo.environment["CHAT_FUZZ_SEED"].flatMap(Self.parseSeed) ?? Self.defaultSeed
        // On a thread of its own: a second of work must not hold the shared cooperative pool,
        // which other suites' async tests (and their timing) need.
        let failures = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Self.search(from: base, iterations: Self.iterations)) }.start()
        }
        for failure in failures { Issue.record(Comment(rawValue: failure)) }
        #expect(failures.isEmpty, "rerun one with CHAT_FUZZ_SEED=<its seed> CHAT_FUZZ_ITERATIONS=1")
    }

    /// Checks `iterations` inputs, the first from `base` itself (so a printed seed reruns its
    /// input), the others from seeds drawn from it; returns what went wrong, for three inputs at most.
    static func search(from base: UInt64, iterations: Int) -> [String] {
        var seeds = SplitMix64(seed: base)
        var failures: [String] = []
        let watchdog = Watchdog(limit: .seconds(20))
        defer { watchdog.stop() }
        for iteration in 0..<max(iterations, 0) {
            let seed = iteration == 0 ? base : seeds.next()
            watchdog.watch(seed)
            let problems = check(seed: seed)
            failures += problems
            if !problems.isEmpty && failures.count >= 3 { break }  // enough to go on
        }
        return failures
    }

    /// Generates one input from `seed` and checks every property; returns what is wrong, naming the seed.
    static func check(seed: UInt64) -> [String] {
        var random = SplitMix64(seed: seed)
        let input = StreamGenerator.input(&random)
        let shown = input.prefix(300).map { String($0, radix: 16) }.joined(separator: " ")
        return StreamProperties.violations(input, random: &random).map { problem in
            "CHAT_FUZZ_SEED=0x\(String(seed, radix: 16)): \(problem)\ninput (\(input.count) bytes): \(shown)\(input.count > 300 ? " …" : "")"
        }
    }

    static func parseSeed(_ text: String) -> UInt64? {
        text.lowercased().hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }

    @Test func generatorAndPRNGAreDeterministic() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        #expect((0..<8).map { _ in a.next() } == (0..<8).map { _ in b.next() })
        var first = SplitMix64(seed: 7)
        var second = SplitMix64(seed: 7)
        #expect(StreamGenerator.input(&first) == StreamGenerator.input(&second))
        // SplitMix64's published first output for seed 0.
        var zero = SplitMix64(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    }

    @Test func outcomesSeeAValidStreamWhole() {
        // A sanity check of the harness itself: a clean stream decodes to its text.
        let stream =
            "\u{FEFF}: keep-alive\r\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hé\"}}]}\r\n\r\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
        let outcome = StreamOutcome(Array(stream.utf8), cuts: [3, 40, 41])
        #expect(outcome.chat == [.text("Hé"), .finished(reason: "stop")])
        #expect(outcome.error == nil && outcome.done && outcome.complete)
        #expect(outcome == StreamOutcome(Array(stream.utf8), cuts: []))
    }
}

// MARK: - Hangs

/// Ends the process, naming the seed, when one input runs longer than `limit`: a hang cannot
/// be interrupted, but it can be made reproducible.
private final class Watchdog: Sendable {
    private final class Shared: Sendable {
        let state = Mutex<(seed: UInt64, since: ContinuousClock.Instant, stopped: Bool)>((0, .now, false))
    }
    private let shared = Shared()

    init(limit: Duration) {
        let shared = self.shared
        Thread {
            while true {
                usleep(100_000)
                let (seed, since, stopped) = shared.state.withLock { $0 }
                if stopped { return }
                if ContinuousClock.now - since > limit {
                    let message =
                        "StreamFuzzTests: CHAT_FUZZ_SEED=0x\(String(seed, radix: 16)) ran over \(limit); stopping\n"
                    FileHandle.standardError.write(Data(message.utf8))
                    abort()
                }
            }
        }.start()
    }

    /// Starts timing the input of `seed`.
    func watch(_ seed: UInt64) { shared.state.withLock { $0 = (seed, .now, false) } }

    func stop() { shared.state.withLock { $0.stopped = true } }
}

// MARK: - Random inputs

private enum StreamGenerator {
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    static let lineEnds: [[UInt8]] = [[0x0A], [0x0D, 0x0A], [0x0D]]
    static let invalidUTF8: [[UInt8]] = [
        [0xFF], [0xFE], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80], [0x80], [0xC3],
        [0xF0, 0x9F, 0x98], [0xEF], [0xEF, 0xBB],
    ]
    static let alphabet: [[UInt8]] =
        [
            "data:", "data: ", "event:", "event: error", "id:", "id: 7", "retry: 10", "error:", ":", " ", "\n", "\r",
            "\r\n", "{", "}", "[", "]", "\"", ",", "null", "[DONE]", "\"error\"", "\"choices\"", "\"delta\"",
            "\"content\"", "\"message\"", "x", "é", "\u{0}",
        ].map { Array($0.utf8) } + [bom] + invalidUTF8

    static let jsonGarbage: [String] = [
        "{", "}", "[", "]", ":", ",", "\"", "null", "true", "false", "-0", "1e400", "18446744073709551616",
        "\"\\ud800\"", "\"\\u0000\"", "\"\\", "\"choices\":", "\"delta\":{", "\"content\":", "\"error\":",
        "\"message\":", "\"finish_reason\":", "\"index\":-1", "\"usage\":{\"prompt_tokens\":-5}", "[DONE]", "data:",
        "\\udc00", "\\ud83d\\ude00", "\\ud800\\u0041", ",}", ",]", "\"created\":1.5e9,", "\"id\":7,", "\"index\":0.0",
        "\"content\":\"dup\",", "\"choices\":null,", "\"error\":null,", "\"object\":5,", "\"cont\\u0065nt\":",
    ]

    /// One input, of a randomly chosen kind.
    static func input(_ random: inout SplitMix64) -> [UInt8] {
        switch random.below(40) {
        case 0...3:
            return (0..<random.below(300)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        case 4...7:
            return (0..<random.below(60)).flatMap { _ in random.pick(alphabet) }
        case 8:
            return hugeLine(&random)
        case 9...11:
            return nested(&random)
        default:
            var stream = validStream(&random)
            for _ in 0..<random.below(4) { mutate(&stream, &random) }
            return stream
        }
    }

    /// A well-formed answer stream: events of every kind with random line endings.
    static func validStream(_ random: inout SplitMix64) -> [UInt8] {
        var out: [UInt8] = random.chance(15) ? bom : []
        let end = random.chance(70) ? [UInt8(0x0A)] : random.pick(lineEnds)
        func line(_ text: String, _ random: inout SplitMix64) {
            out += Array(text.utf8) + (random.chance(85) ? end : random.pick(lineEnds))
        }
        for _ in 0..<random.below(9) {
            switch random.below(18) {
            case 0...4: line("data: " + chunk(content: text(&random)), &random)
            case 5: line("data: " + chunk(reasoning: text(&random)), &random)
            case 6: line("data: " + chunk(finish: random.pick(["stop", "length", "error", "", "tool_calls"])), &random)
            case 7:
                line(
                    #"data: {"choices":[],"usage":{"prompt_tokens":\#(random.below(99)),"completion_tokens":\#(random.below(99)),"total_tokens":\#(random.below(200))}}"#,
                    &random)
            case 8: line("data: [DONE]", &random)
            case 9: line("data: " + errorObject(&random), &random)
            case 10:
                line("event: error", &random)
                line("data: " + errorObject(&random), &random)
            case 11: line("error: " + errorObject(&random), &random)
            case 12: line(random.pick([": keep-alive", ":", ": OPENROUTER PROCESSING", "retry: 3000"]), &random)
            case 13: line("id: " + String(random.below(1000)), &random)
            case 15, 16: line("data: " + random.pick(lenientChunks), &random)
            case 14:
                // One JSON object over two data lines: joined with LF, still valid JSON.
                line(#"data: {"choices":[{"index":0,"delta":"#, &random)
                line(#"data: {"content":"\#(jsonEscaped(text(&random)))"}}]}"#, &random)
            default:
                line(
                    "data: "
                        + random.pick([
                            "{}", #"{"choices":null}"#, #"{"choices":[{"delta":null,"finish_reason":null}]}"#,
                            #"{"choices":[{"index":1,"delta":{"content":"other choice"}}]}"#,
                            #"{"choices":[{"index":0,"delta":{"content":null,"refusal":"no"}}]}"#,
                            #"{"object":"error","message":"flat vLLM error"}"#, "not json", "[1,2]", "\"text\"", "",
                        ]), &random)
            }
            if random.chance(90) { out += random.chance(85) ? end : random.pick(lineEnds) }
        }
        return out
    }

    /// Chunks with fields chat does not use of every type and value, keys that repeat, lone
    /// surrogates and odd values where chat reads one: each must read by the lenient rules.
    static let lenientChunks: [String] = [
        #"{"id":5,"created":1.5e9,"model":null,"system_fingerprint":{"a":[1]},"choices":[{"index":0,"delta":{"content":"x"}}]}"#,
        #"{"choices":[{"index":0,"delta":{"content":"first","content":"last"}}]}"#,
        #"{"choices":[{"index":0,"delta":{"content":"a"}}],"choices":[{"index":0,"delta":{"content":"b"}}]}"#,
        #"{"choices":[{"index":0,"index":1,"delta":{"content":"not choice 0"}}]}"#,
        #"{"choices":[{"index":0,"delta":{"content":"lone \ud800 high, \udc00 low, \udc00\ud800 reversed, \ud83d\ude00 pair"}}]}"#,
        #"{"choices":[{"index":0,"delta":{"cont\u0065nt":"escaped key"}}]}"#,
        #"{"choices":[null,5,"x",{"delta":{"content":"after non-objects"}}]}"#,
        #"{"error":null,"object":7,"choices":[{"index":0.0,"delta":{"content":"zero as a float"}}]}"#,
        #"{"choices":[{"index":"1","delta":{"content":"index not a number"},"finish_reason":5}]}"#,
        #"{"choices":[{"index":0,"delta":{"content":5,"role":null,"refusal":["r"]},"finish_reason":null}]}"#,
        #"{"choices":[{"index":0,"delta":"not an object"}],"usage":{"prompt_tokens":2.0,"completion_tokens":1.5,"total_tokens":"3"}}"#,
        #"{"choices":[],"usage":[1,2]}"#, #"{"error":5,"object":"error","type":"only a type"}"#,
        #"{"error":{"message":7,"type":"typed"}}"#, #"{"choices":[{"index":1e20,"delta":{"content":"huge index"}}]}"#,
        #"{"choices":[{"index":-0,"delta":{"content":"minus zero"}}]}"#, #"{"choices":[1,],}"#,
        #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_time","arguments":""}}]}}]}"#,
        #"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1.0,"function":{"arguments":"{\"tz\":"}},null,{"index":"2","function":5}]}}]}"#,
    ]

    static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let at = random.below(bytes.count + 1)
        switch random.below(8) {
        case 0: bytes.removeSubrange(at...)  // truncate
        case 1: bytes.insert(contentsOf: random.pick(lineEnds + [[0x0A, 0x0A], [0x0D, 0x0D]]), at: at)
        case 2:
            // A BOM, or the start of one, often where the stream begins.
            bytes.insert(contentsOf: bom.prefix(1 + random.below(3)), at: random.chance(50) ? 0 : at)
        case 3: bytes.insert(contentsOf: random.pick(invalidUTF8), at: at)
        case 4: bytes.insert(contentsOf: Array(random.pick(jsonGarbage).utf8), at: at)
        case 5: if at < bytes.count { bytes[at] = UInt8(truncatingIfNeeded: random.next()) }
        case 6:
            let end = min(bytes.count, at + random.below(40))
            bytes.removeSubrange(at..<end)
        default:
            let end = min(bytes.count, at + random.below(200))
            bytes.insert(contentsOf: bytes[at..<end], at: end)
        }
    }

    /// A single line of 8 to 140 KB (the parser gives back buffers above 64 KB): content, a
    /// comment, garbage or unterminated.
    static func hugeLine(_ random: inout SplitMix64) -> [UInt8] {
        let size = 8_000 + random.below(132_000)
        let unit = random.pick(["abcdefgh", "é中😀", "\\\"", " "])
        let body = String(repeating: unit, count: size / unit.utf8.count)
        switch random.below(4) {
        case 0: return Array(("data: " + chunk(content: body) + "\n\ndata: [DONE]\n\n").utf8)
        case 1: return Array((": " + body + "\ndata: " + chunk(content: "after") + "\n\n").utf8)
        case 2: return Array(("data: {\"choices\":[" + body + "\n\n").utf8)
        default: return Array(("data: " + body).utf8)  // never ends
        }
    }

    /// Deeply nested JSON, errors inside errors.
    static func nested(_ random: inout SplitMix64) -> [UInt8] {
        let depth = 1 + random.below(random.chance(20) ? 3_000 : 60)
        let json: String
        switch random.below(4) {
        case 0: json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        case 1:
            json = String(repeating: #"{"error":"#, count: depth) + #""deep""# + String(repeating: "}", count: depth)
        case 2:
            json =
                #"{"choices":[{"index":0,"delta":{"content":"#
                + String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth) + "}}]}"
        default:
            json =
                #"{"error":{"message":"#
                + String(repeating: #"{"message":"#, count: depth) + #""m""# + String(repeating: "}", count: depth)
                + "}}"
        }
        let prefix = random.pick(["data: ", "event: error\ndata: ", "error: "])
        return Array((prefix + json + "\n\n").utf8)
    }

    static func text(_ random: inout SplitMix64) -> String {
        let pieces = [
            "Hello", " world", "é", "中文", "😀", "\n", "\t", "\"", "\\", "\u{0}", "\u{1F}", "\u{FEFF}", "data: x",
            "[DONE]",
            "\r\n", "</html>",
        ]
        return (0..<random.below(6)).map { _ in random.pick(pieces) }.joined()
    }

    static func errorObject(_ random: inout SplitMix64) -> String {
        let message = jsonEscaped(text(&random))
        return random.pick([
            #"{"error":{"message":"\#(message)","type":"server_error","param":null,"code":null}}"#,
            #"{"error":"\#(message)"}"#, #"{"error":{"message":null}}"#, #"{"error":{}}"#, #"{"error":null}"#,
            #"{"message":"\#(message)"}"#, #"{"error":{"message":"\#(message)","code":429}}"#,
            #"{"error":{"error":{"message":"\#(message)"}}}"#, #"{"error":["\#(message)"]}"#, message,
        ])
    }

    static func chunk(content: String? = nil, reasoning: String? = nil, finish: String? = nil) -> String {
        var delta: [String] = []
        if let content { delta.append(#""content":"\#(jsonEscaped(content))""#) }
        if let reasoning { delta.append(#""reasoning_content":"\#(jsonEscaped(reasoning))""#) }
        let reason = finish.map { #""\#($0)""# } ?? "null"
        return
            #"{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{\#(delta.joined(separator: ","))},"finish_reason":\#(reason)}]}"#
    }

    static func jsonEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                out +=
                    "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
