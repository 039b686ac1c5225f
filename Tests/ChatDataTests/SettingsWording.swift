import ChatDomain
import ChatPresentation
import Testing

@testable import ChatConfig

/// The line a person reads for `error`.
func line(_ error: SettingsError) -> String {
    ErrorWording.line(for: error)
}

/// The line a person reads for `error`, nil when there is none.
func line(_ error: SettingsError?) -> String? {
    error.map(ErrorWording.line(for:))
}

/// What the line for a config file's `issue` says after the key: `unknown key; did you mean model?`.
func problem(_ issue: ConfigIssue) -> String {
    let whole = ErrorWording.line(for: .configFile(path: "F", .issue(issue)))
    return String(whole.dropFirst("config F: \(issue.key): ".count))
}

/// The line a person reads for `note`.
func line(_ note: SettingsNote) -> String {
    ErrorWording.line(for: note)
}

/// Expects reading `json` as a config file to fail on `key`, its line saying `problem`.
func expectIssue(
    _ json: String, key: String, problem expected: String, sourceLocation: SourceLocation = #_sourceLocation
) {
    do throws(ConfigIssue) {
        _ = try ConfigFile(bytes: Array(json.utf8))
        Issue.record("expected an issue with \(key)", sourceLocation: sourceLocation)
    } catch {
        #expect(error.key == key, sourceLocation: sourceLocation)
        #expect(problem(error) == expected, sourceLocation: sourceLocation)
    }
}
