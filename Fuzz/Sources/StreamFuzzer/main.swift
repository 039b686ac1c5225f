import CFuzzDriver

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One input from libFuzzer: the bytes of a response body. It is read whole and in pieces cut
/// where a generator seeded from the bytes themselves says (so a saved crash reproduces), and any
/// broken property ends the process, which makes libFuzzer save the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    var random = SplitMix64(seed: fnv1a(input))
    let problems = StreamProperties.violations(input, random: &random)
    if !problems.isEmpty {
        fatalError(problems.joined(separator: "\n"))
    }
    return 0
}

/// FNV-1a, 64 bits.
func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    return hash
}

// SwiftPM makes this file's top-level code the program's `main` (a linker alias), which hides the
// `main` libFuzzer brings: start libFuzzer's driver here instead.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzOne($0, $1) })
