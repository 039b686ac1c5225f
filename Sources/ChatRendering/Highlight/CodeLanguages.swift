import Synchronization

/// The languages code blocks are highlighted in, by the names an info string uses. A name not
/// here is shown plain.
enum CodeLanguages {
    /// The lexing rules for the language an info string names (`swift`, `py`, `c++`…), if known.
    /// Each language's rules (its word sets) are made the first time a block names it, not all
    /// twenty at the first code block (docs/PERFORMANCE.md, round 9, says what that saved).
    static func named(_ name: String) -> CodeLanguage? {
        guard let index = indexByName[name.lowercased()] else { return nil }
        return made.withLock { made in
            if let language = made[index] { return language }
            let language = CodeLanguage(all[index].rules)
            made[index] = language
            return language
        }
    }

    private static let indexByName: [String: Int] = {
        var table: [String: Int] = [:]
        for (index, entry) in all.enumerated() {
            for name in entry.names.split(separator: " ") { table[String(name)] = index }
        }
        return table
    }()

    private static let made = Mutex<[Int: CodeLanguage]>([:])

    private static let cComment: (open: [UInt8], close: [UInt8]) = (Array("/*".utf8), Array("*/".utf8))
    private static let slashes = [Array("//".utf8)]
    private static let hash = [Array("#".utf8)]
    private static let dashes = [Array("--".utf8)]
    private static let quotes = [CodeLanguage.string("\""), CodeLanguage.string("'")]

    private static let all: [(names: String, rules: @Sendable (inout CodeLanguage.Spec) -> Void)] = [
        (
            "swift",
            {
                $0.lineComments = slashes
                $0.blockComment = cComment
                $0.strings = [CodeLanguage.string("\"\"\"", multiline: true), CodeLanguage.string("\"")]
                $0.keywords = CodeLanguage.words(
                    "actor any as associatedtype async await break case catch class continue default defer deinit do "
                        + "else enum extension fallthrough fileprivate for func guard if import in indirect init inout "
                        + "internal is lazy let mutating nonisolated open operator private protocol public repeat "
                        + "rethrows return some static struct subscript super switch throw throws try typealias var "
                        + "where while willSet didSet get set consuming borrowing sending")
                $0.literals = CodeLanguage.words("true false nil self Self")
                $0.capitalizedTypes = true
                $0.atAttributes = true
                $0.hashDirectives = true
            }
        ),
        (
            "python py python3 py3 pyi",
            {
                $0.lineComments = hash
                $0.strings =
                    [
                        CodeLanguage.string("\"\"\"", multiline: true), CodeLanguage.string("'''", multiline: true),
                    ] + quotes
                $0.keywords = CodeLanguage.words(
                    "and as assert async await break class continue def del elif else except finally for from global "
                        + "if import in is lambda match case nonlocal not or pass raise return try while with yield")
                $0.types = CodeLanguage.words("int float str bool list dict set tuple bytes object type")
                $0.literals = CodeLanguage.words("True False None self cls")
                $0.capitalizedTypes = true
                $0.atAttributes = true
            }
        ),
        (
            "javascript js jsx mjs cjs node typescript ts tsx mts",
            {
                $0.lineComments = slashes
                $0.blockComment = cComment
                $0.strings = quotes + [CodeLanguage.string("`", multiline: true)]
                $0.keywords = CodeLanguage.words(
                    "async await break case catch class const continue debugger default delete do else export "
                        + "extends finally for from function if import in instanceof let new of return static super "
                        + "switch throw try typeof var void while with yield interface type enum implements private "
                        + "public protected readonly abstract declare namespace as keyof satisfies")
                $0.types = CodeLanguage.words("string number boolean any unknown never object symbol bigint")
                $0.literals = CodeLanguage.words("true false null undefined this NaN Infinity")
                $0.capitalizedTypes = true
                $0.atAttributes = true
            }
        ),
        (
            "go golang",
            {
                $0.lineComments = slashes
                $0.blockComment = cComment
                $0.strings = [
                    CodeLanguage.string("\""), CodeLanguage.string("'"),
                    CodeLanguage.string("`", multiline: true, escapes: false),
                ]
                $0.keywords = CodeLanguage.words(
                    "break case chan const continue default defer else fallthrough for func go goto if import "
                        + "interface map package range return select struct switch type var")
                $0.types = CodeLanguage.words(
                    "bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string "
                        + "uint uint8 uint16 uint32 uint64 uintptr any")
                $0.literals = CodeLanguage.words("true false nil iota")
            }
        ),
        (
            "rust rs",
            {
                $0.lineComments = slashes
                $0.blockComment = cComment
                $0.strings = [CodeLanguage.string("\"", multiline: true)]
                $0.keywords = CodeLanguage.words(
                    "as async await break const continue crate dyn else enum extern fn for if impl in let loop match "
                        + "mod move mut pub ref return static struct super trait type unsafe use where while")
                $0.types = CodeLanguage.words(
                    "i8 i16 i32 i64 i128 isize u8 u16 u32 u64 u128 usize f32 f64 bool char str")
                $0.literals = CodeLanguage.words("true false self Self None Some Ok Err")
                $0.capitalizedTypes = true
            }
        ),
        (
            "c h cpp c++ cc cxx hpp hh hxx h++ objc objective-c",
            {
                $0.lineComments = slashes
                $0.blockComment = cComment
                $0.strings = quotes
                $0.keywords = CodeLanguage.words(
                    "auto break case catch class const constexpr continue default delete do else enum explicit "
                        + "extern for friend goto if inline namespace new noexcept operator private protected public "
                        + "register return sizeof static static_cast struct switch template this throw try typedef "
                        + "typename union using virtual volatile while override final")
                $0.types = CodeLanguage.words(
                    "void char short int long float double signed unsigned bool size_t int8_t int16_t int32_t "
                        + "int64_t uint8_t uint16_t uint32_t uint64_t FILE std string vector")
                $0.literals = CodeLanguage.words("true false NULL nullptr")
                $0.hashDirectives = true
            }
        ),
        (
            "java kotlin kt kts scala csharp cs c# dart groovy",
            {
                $0.lineComments = slashes
                $0.blockComment = cComment
                $0.strings = [CodeLanguage.string("\"\"\"", multiline: true)] + quotes
                $0.keywords = CodeLanguage.words(
                    "abstract assert break case catch class const continue default do else enum extends final "
                        + "finally for goto if implements import instanceof interface native new package private "
                        + "protected public return static super switch synchronized throw throws transient try "
                        + "volatile while var val fun object when override open data sealed is in out using "
                        + "namespace async await record yield")
                $0.types = CodeLanguage.words("boolean byte char double float int long short void string bool")
                $0.literals = CodeLanguage.words("true false null this")
                $0.capitalizedTypes = true
                $0.atAttributes = true
            }
        ),
        (
            "sh bash shell zsh ksh fish console shellsession sh-session",
            {
                $0.lineComments = hash
                $0.lineCommentAtWordStart = true
                $0.strings = [CodeLanguage.string("\""), CodeLanguage.string("'", multiline: true, escapes: false)]
                $0.keywords = CodeLanguage.words(
                    "if then else elif fi for while until do done case esac in function select return exit break "
                        + "continue local export readonly declare set unset shift source alias trap eval exec time")
                $0.variables = true
                $0.dashInWords = true
            }
        ),
        (
            "json jsonc json5 jsonl geojson",
            {
                $0.lineComments = slashes
                $0.blockComment = cComment
                $0.strings = [CodeLanguage.string("\"")]
                $0.literals = CodeLanguage.words("true false null")
            }
        ),
        (
            "yaml yml",
            {
                $0.lineComments = hash
                $0.lineCommentAtWordStart = true
                $0.strings = [CodeLanguage.string("\""), CodeLanguage.string("'", escapes: false)]
                $0.literals = CodeLanguage.words("true false null yes no on off True False Null ~")
                $0.keys = true
                $0.dashInWords = true
            }
        ),
        (
            "toml ini cfg conf properties editorconfig",
            {
                $0.lineComments = hash + [Array(";".utf8)]
                $0.lineCommentAtWordStart = true
                $0.strings =
                    [
                        CodeLanguage.string("\"\"\"", multiline: true), CodeLanguage.string("'''", multiline: true),
                    ] + quotes
                $0.literals = CodeLanguage.words("true false")
                $0.keys = true
                $0.dashInWords = true
            }
        ),
        (
            "sql mysql postgresql postgres psql sqlite plsql tsql",
            {
                $0.lineComments = dashes
                $0.blockComment = cComment
                $0.strings = [CodeLanguage.string("'"), CodeLanguage.string("\"")]
                $0.keywords = CodeLanguage.words(
                    "select from where and or not insert into values update set delete create table drop alter add "
                        + "index view join left right inner outer full cross on as group by order having limit "
                        + "offset union all distinct case when then else end begin commit rollback transaction "
                        + "primary key foreign references unique default check constraint if exists in is like "
                        + "between with returning desc asc")
                $0.types = CodeLanguage.words(
                    "int integer bigint smallint text varchar char boolean bool date timestamp timestamptz real "
                        + "double float numeric decimal serial bigserial json jsonb blob uuid")
                $0.literals = CodeLanguage.words("null true false")
                $0.caseInsensitive = true
            }
        ),
        (
            "html htm xhtml xml svg vue svelte plist xsl",
            {
                $0.blockComment = (Array("<!--".utf8), Array("-->".utf8))
                $0.markup = true
                $0.dashInWords = true
            }
        ),
        (
            "diff patch udiff",
            {
                $0.lineRule = .diff
            }
        ),
        (
            "ruby rb",
            {
                $0.lineComments = hash
                $0.strings = quotes
                $0.keywords = CodeLanguage.words(
                    "alias and begin break case class def defined? do else elsif end ensure for if in module next "
                        + "not or redo rescue retry return self super then undef unless until when while yield "
                        + "require attr_accessor attr_reader puts")
                $0.literals = CodeLanguage.words("true false nil")
                $0.capitalizedTypes = true
                $0.atAttributes = true
            }
        ),
        (
            "lua",
            {
                $0.lineComments = dashes
                $0.strings = quotes
                $0.keywords = CodeLanguage.words(
                    "and break do else elseif end for function goto if in local not or repeat return then until while")
                $0.literals = CodeLanguage.words("true false nil")
            }
        ),
        (
            "php",
            {
                $0.lineComments = slashes + hash
                $0.blockComment = cComment
                $0.strings = quotes
                $0.keywords = CodeLanguage.words(
                    "abstract and as break case catch class const continue declare default do echo else elseif "
                        + "extends final finally fn for foreach function global if implements include interface "
                        + "namespace new or private protected public require return static switch throw trait try "
                        + "use var while yield")
                $0.literals = CodeLanguage.words("true false null")
                $0.variables = true
                $0.capitalizedTypes = true
            }
        ),
        (
            "css scss less",
            {
                $0.blockComment = cComment
                $0.strings = quotes
                $0.keys = true
                $0.dashInWords = true
                $0.atAttributes = true
            }
        ),
        (
            "dockerfile docker containerfile",
            {
                $0.lineComments = hash
                $0.lineCommentAtWordStart = true
                $0.strings = quotes
                $0.keywords = CodeLanguage.words(
                    "from run cmd label expose env add copy entrypoint volume user workdir arg onbuild "
                        + "stopsignal healthcheck shell as")
                $0.caseInsensitive = true
                $0.variables = true
            }
        ),
        (
            "makefile make mk",
            {
                $0.lineComments = hash
                $0.variables = true
                $0.keywords = CodeLanguage.words("ifeq ifneq ifdef ifndef else endif include define endef export")
            }
        ),
    ]
}
