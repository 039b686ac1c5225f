/// What a piece of code is, for its colour.
enum CodeToken: Sendable, Equatable {
    case plain
    case keyword
    case type
    case string
    case number
    /// true, false, nil, null…
    case literal
    case comment
    /// Decorators and annotations (`@main`), keys (`name:` in YAML), attribute names in markup.
    case attribute
    /// Shell and PHP variables.
    case variable
    /// Added and removed lines of a diff.
    case inserted
    case deleted
    /// Preprocessor directives, diff hunk headers, TOML sections.
    case meta
}
