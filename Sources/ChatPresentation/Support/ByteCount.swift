/// A size as people read it: `512 bytes`, `1.2 KiB`, `3.4 MiB`.
public enum ByteCount {
    /// `bytes` in the largest unit that keeps it at least 1, to a tenth.
    public static func text(_ bytes: Int) -> String {
        guard bytes >= 1024 else { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let units = ["KiB", "MiB", "GiB"]
        var value = Double(bytes) / 1024
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        let number = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
        return "\(number) \(units[unit])"
    }
}
