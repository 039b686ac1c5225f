/// Why the command line cannot be used.
enum CLIError: Error, Equatable {
    /// A flag or value the program does not understand; exit status 2.
    case usage(String)

    var message: String {
        switch self {
        case .usage(let message): return message
        }
    }
}
