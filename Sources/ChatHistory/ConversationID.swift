/// A stored conversation's short id.
enum ConversationID {
    /// Eight random base-36 digits: the low ones of one random 64-bit number (one getrandom(2)
    /// call, not one per digit). 36⁸ is below 2⁶⁴, so they are all but uniform (a bias under 10⁻⁶).
    static func make() -> String {
        let alphabet = Array("0123456789abcdefghijklmnopqrstuvwxyz".utf8)
        var generator = SystemRandomNumberGenerator()
        var bits = generator.next()
        var digits: [UInt8] = []
        digits.reserveCapacity(8)
        for _ in 0..<8 {
            digits.append(alphabet[Int(bits % 36)])
            bits /= 36
        }
        return String(decoding: digits, as: UTF8.self)
    }
}
