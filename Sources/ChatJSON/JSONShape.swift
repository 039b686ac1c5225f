#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The shape of an object `JSONReader` read in full: its bytes, where its string values lie, and
/// the DTO it gave. A text with the same bytes everywhere but inside those string values is read
/// by comparing those bytes, checking its string values and putting the new ones in that DTO's
/// `String` fields (`JSONPatcher`), without parsing it.
///
/// Why: a server sends one chunk per token, and nearly all of them differ only in the text (the
/// id, model, created time and keys repeat); reading each in full was most of an answer's work
/// (docs/PERFORMANCE.md, rounds 2 and 11).
///
/// It is exact, not a guess: putting another valid string body where one was leaves every key,
/// number, `null` and bracket where it was, so a reading would walk the same path, make the same
/// decisions and give the same DTO but for those strings. Only strings read into `String` fields
/// are put in; other string values whose text decides nothing (members the DTO does not read,
/// values of another type than a field's) are only checked, as a reading checks them; every
/// other string (a key, a value compared, free-form JSON) is part of the bytes compared. Anything
/// else that changed (a number, `null` becoming a string, a new key) is a mismatch, and the text
/// is read in full.
public struct JSONShape<DTO: JSONObjectDTO> {
    private let bytes: [UInt8]
    private let holes: [JSONHole]
    private let steps: [JSONPathStep]
    /// The DTO of the last text read, whose strings the next one replaces in place.
    private var dto: DTO
    /// Set when a text turned out to have another shape after some of its strings were put in
    /// (or one could not be): the DTO is no longer one a reading gave.
    private var broken = false

    /// The DTO `bytes` hold, read in full, and their shape (nil when they have none).
    public static func reading(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> (DTO?, JSONShape?) {
        var recorder = JSONShapeRecorder()
        let dto = try JSONReader.read(DTO.self, from: bytes, recording: &recorder)
        guard let dto, !recorder.failed else { return (dto, nil) }
        return (dto, JSONShape(bytes: Array(bytes), holes: recorder.holes, steps: recorder.steps, dto: dto))
    }

    private init(bytes: [UInt8], holes: [JSONHole], steps: [JSONPathStep], dto: DTO) {
        self.bytes = bytes
        self.holes = holes
        self.steps = steps
        self.dto = dto
    }

    /// Lends `body` the DTO in `data` if `data` has this shape, and returns what `body` returns;
    /// nil if it does not (read it in full then). Lent in place (`inout` only so that it is not
    /// copied: a DTO is many fields), not to be changed.
    public mutating func read<Result>(_ data: UnsafeBufferPointer<UInt8>, _ body: (inout DTO) -> Result) -> Result? {
        guard !broken, let base = data.baseAddress else { return nil }
        let template = bytes
        return template.withUnsafeBufferPointer { template -> Result? in
            guard let templateBase = template.baseAddress else { return nil }
            var templateAt = 0
            var dataAt = 0
            var patched = false
            for hole in holes {
                // The bytes up to and including the value's opening quote (a number's first byte).
                let literal = hole.range.lowerBound - templateAt
                if hole.isNumber {
                    guard data.count - dataAt >= literal, memcmp(base + dataAt, templateBase + templateAt, literal) == 0
                    else {
                        broken = patched
                        return nil
                    }
                    // Any number: its bytes, up to what follows it in the template.
                    var end = dataAt + literal
                    while end < data.count, Self.inNumber(data[end]) { end += 1 }
                    guard end > dataAt + literal else {
                        broken = patched
                        return nil
                    }
                    dataAt = end
                    templateAt = hole.range.upperBound
                    continue
                }
                guard data.count - dataAt >= literal,
                    memcmp(base + dataAt, templateBase + templateAt, literal) == 0,
                    case var scanner = JSONStringScanner(data, at: dataAt + literal - 1),
                    let (range, escaped) = scanner.scan()
                else {
                    // A DTO with some of the strings put in is no longer one a reading gave.
                    broken = patched
                    return nil
                }
                if let path = hole.path {
                    let raw = UnsafeBufferPointer(rebasing: data[range])
                    let text = escaped ? JSONStringScanner.unescape(raw) : String(decoding: raw, as: UTF8.self)
                    var patcher = JSONPatcher(text, along: steps[path], keysIn: template)
                    patched = true
                    guard DTO.patch(&dto, with: &patcher) else {
                        broken = true
                        return nil
                    }
                }
                dataAt = range.upperBound  // at the closing quote, where the next literal starts
                templateAt = hole.range.upperBound
            }
            let rest = template.count - templateAt
            guard data.count - dataAt == rest, memcmp(base + dataAt, templateBase + templateAt, rest) == 0 else {
                broken = patched
                return nil
            }
            return body(&dto)
        }
    }

    /// Whether `byte` may be part of a JSON number.
    private static func inNumber(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E")
    }
}
