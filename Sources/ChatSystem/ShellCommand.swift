#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a command line with `/bin/sh -c` and captures its standard output; standard input and
/// error stay the terminal's, so a command that asks for a passphrase can.
package enum ShellCommand {
    package struct Failure: Error {
        package var message: String
    }

    package static func run(_ command: String) throws(Failure) -> (status: Int32, output: [UInt8]) {
        switch ProcessSpawn.output(["/bin/sh", "-c", command]) {
        case .success(let ended): return ended
        case .failure(let failure):
            throw Failure(message: "could not run /bin/sh: \(String(cString: strerror(failure.code)))")
        }
    }
}
