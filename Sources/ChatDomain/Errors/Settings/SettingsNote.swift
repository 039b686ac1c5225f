/// Something worth telling the person about how the settings were decided, on stderr: a note,
/// or a warning.
public enum SettingsNote: Sendable, Equatable {
    /// A configured key stays home; the request carries `OPENAI_API_KEY` (`carriesEnvironmentKey`)
    /// or no key.
    case keyStaysHome(KeptKey, carriesEnvironmentKey: Bool)
    /// The config file at `path` holds an API key and others can read it.
    case keyFileReadableByOthers(path: String)
}
