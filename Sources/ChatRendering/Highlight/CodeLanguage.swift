/// How one family of languages is lexed, as data: comments, strings, words, and a few rules of
/// its own. `CodeLexer` reads code with it; `CodeLanguages` holds one for each language named.
/// A final class: a lexer holds its language by reference, so reading the rules for every token
/// copies none of them.
final class CodeLanguage: Sendable {
    /// A kind of string: its delimiters, whether it may span lines, whether `\` escapes.
    struct StringRule: Sendable {
        var open: [UInt8]
        var close: [UInt8]
        var multiline = false
        var escapes = true
    }

    /// How whole lines are coloured, for languages that work by lines.
    enum LineRule: Sendable {
        /// None: tokens only.
        case none
        /// Unified diff: `+` added, `-` removed, `@@` hunk headers, `diff`/`index` file headers.
        case diff
    }

    /// The rules as they are written down, in `CodeLanguages`.
    struct Spec {
        var blockComment: (open: [UInt8], close: [UInt8])?
        var lineComments: [[UInt8]] = []
        /// A line comment starts only at the start of a word (shell's `#`, not `$#`).
        var lineCommentAtWordStart: Bool = false
        var strings: [StringRule] = []
        var keywords: Set<String> = []
        var types: Set<String> = []
        var literals: Set<String> = []
        /// Keywords match in any case (SQL).
        var caseInsensitive: Bool = false
        /// A word starting with a capital letter is a type (Swift, Java, Rust, Go…).
        var capitalizedTypes: Bool = false
        /// `$NAME`, `${…}`, `$1`: a variable (shell, PHP, Perl).
        var variables: Bool = false
        /// `@name`: an attribute, decorator or annotation.
        var atAttributes: Bool = false
        /// `#name` at the start of a line: a directive (C's `#include`, Swift's `#if`).
        var hashDirectives: Bool = false
        /// `name:` (YAML) or `name =` at the start of a line (TOML) is a key.
        var keys: Bool = false
        /// Tags and attributes of HTML and XML.
        var markup: Bool = false
        var lineRule: LineRule = LineRule.none
        /// Words may hold `-` (CSS properties, shell options).
        var dashInWords: Bool = false
    }

    let lineComments: [[UInt8]]
    /// A line comment starts only at the start of a word (shell's `#`, not `$#`).
    let lineCommentAtWordStart: Bool
    let blockComment: (open: [UInt8], close: [UInt8])?
    let strings: [StringRule]
    /// What each of its keywords, literals and types is (a word in two of the sets is a keyword
    /// before a literal, a literal before a type): one lookup a word, not three.
    let wordKinds: [String: CodeToken]
    /// Keywords match in any case (SQL).
    let caseInsensitive: Bool
    /// A word starting with a capital letter is a type (Swift, Java, Rust, Go…).
    let capitalizedTypes: Bool
    /// `$NAME`, `${…}`, `$1`: a variable (shell, PHP, Perl).
    let variables: Bool
    /// `@name`: an attribute, decorator or annotation.
    let atAttributes: Bool
    /// `#name` at the start of a line: a directive (C's `#include`, Swift's `#if`).
    let hashDirectives: Bool
    /// `name:` (YAML) or `name =` at the start of a line (TOML) is a key.
    let keys: Bool
    /// Tags and attributes of HTML and XML.
    let markup: Bool
    let lineRule: LineRule
    /// Words may hold `-` (CSS properties, shell options).
    let dashInWords: Bool

    init(_ configure: (inout Spec) -> Void) {
        var spec = Spec()
        configure(&spec)
        lineComments = spec.lineComments
        lineCommentAtWordStart = spec.lineCommentAtWordStart
        blockComment = spec.blockComment
        strings = spec.strings
        var kinds: [String: CodeToken] = [:]
        for (words, kind) in [(spec.types, CodeToken.type), (spec.literals, .literal), (spec.keywords, .keyword)] {
            for word in words { kinds[word] = kind }
        }
        wordKinds = kinds
        caseInsensitive = spec.caseInsensitive
        capitalizedTypes = spec.capitalizedTypes
        variables = spec.variables
        atAttributes = spec.atAttributes
        hashDirectives = spec.hashDirectives
        keys = spec.keys
        markup = spec.markup
        lineRule = spec.lineRule
        dashInWords = spec.dashInWords
    }

    static func words(_ text: String) -> Set<String> {
        Set(text.split(separator: " ").map(String.init))
    }

    static func string(_ delimiter: String, multiline: Bool = false, escapes: Bool = true) -> StringRule {
        StringRule(open: Array(delimiter.utf8), close: Array(delimiter.utf8), multiline: multiline, escapes: escapes)
    }
}
