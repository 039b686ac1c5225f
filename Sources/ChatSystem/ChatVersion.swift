/// The version of chat, as sent in the User-Agent and shown by `--version`.
public enum ChatVersion {
    /// Semantic version string.
    public static let string = "0.1.0"
}
