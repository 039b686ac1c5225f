/// When answers are rendered as Markdown (the `render` setting, `--render`).
public enum RenderMode: String, CaseIterable, Sendable {
    /// When standard output is a terminal (the default).
    case auto
    /// Always, even into a pipe (without escapes where the terminal takes none).
    case always
    /// Never: the text as it arrives (`--raw`).
    case never
}

extension RenderMode: SettingTarget {
    init?(setting: SettingValue) {
        guard case .text(let word) = setting else { return nil }
        self.init(rawValue: word)
    }
}
