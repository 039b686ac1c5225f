/// Why the API key source a config level names gave no key.
public enum KeySourceProblem: Error, Sendable, Equatable {
    /// `api_key_env` names a variable that is not set.
    case variableNotSet(name: String)
    /// `api_key_env` names a variable that is set, but empty or blank.
    case variableBlank(name: String)
    /// `api_key_file`'s file (its path, `~/` expanded) cannot be used.
    case file(path: String, FileProblem)
    /// `api_key_file`'s file is empty.
    case fileEmpty(path: String)
    /// `api_key_command` could not be started; the reason.
    case commandNotRun(reason: String)
    /// `api_key_command` ended with this exit status.
    case commandFailed(status: Int32)
    /// `api_key_command` printed nothing.
    case commandPrintedNothing
}
