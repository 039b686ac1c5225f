// swift-tools-version: 6.0
import PackageDescription

// Release builds on Linux put the code a run executes in one stretch of the binary: lld places the
// sections that hold the functions named in scripts/symbol-order.txt (written by
// scripts/symbol-order from profiled runs) first, so a run maps fewer pages of the 30 MB binary
// (docs/PERFORMANCE.md, round 7). A name the file lacks, or no longer matches, only leaves that
// function where the linker would have put it; the program is the same either way.
let symbolOrder = Context.packageDirectory + "/scripts/symbol-order.txt"
// And they pack the 41,000 relative relocations (DT_RELR) into 8 KB instead of 960 KB that the
// dynamic linker reads at every start, when this machine's glibc is 2.36 or later (older ones
// cannot load such a binary; lld then marks it as needing GLIBC_ABI_DT_RELR).
#if canImport(Glibc)
    import Glibc
    let glibcVersion: [Int] = {  // "glibc 2.36" → [2, 36]
        var text = [CChar](repeating: 0, count: 64)
        guard confstr(Int32(_CS_GNU_LIBC_VERSION), &text, text.count) > 0 else { return [] }
        let name = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    }()
    let packRelocations = glibcVersion.count >= 2 && !glibcVersion.lexicographicallyPrecedes([2, 36])
#else
    let packRelocations = false
#endif
// And they link the 18 functions of libstdc++ that Swift's runtime uses from the static
// libstdc++.a, when the compiler has one, instead of loading libstdc++.so.6 (about 1 MiB less resident
// per run): scripts/link/libstdc++.so, found first by the toolchain's -lstdc++, names it; and
// scripts/link/libgcc_s.so, found first by its -lgcc_s, names the unwinder's libgcc_eh.a beside it.
#if canImport(Glibc)
    let staticLibstdcxx: Bool = {
        var found = glob_t()
        defer { globfree(&found) }
        return glob("/usr/lib/gcc/*-linux-gnu*/*/libstdc++.a", 0, nil, &found) == 0 && found.gl_pathc > 0
    }()
#else
    let staticLibstdcxx = false
#endif
// And they link SQLite and libedit (with libedit's own libtinfo, libbsd and libmd) from the
// system's static archives when those are installed (Debian's -dev packages ship them), instead of
// loading five more shared libraries at every start: with libgcc_s (above), about 1.3 ms of a
// one-shot's 14 (docs/PERFORMANCE.md, round 9). libcurl and its TLS stay shared, so security
// updates reach them.
#if canImport(Glibc)
    // This machine's own library directory (not another architecture's, on a multiarch system).
    #if arch(x86_64)
        let multiarch = "/usr/lib/x86_64-linux-gnu/"
    #elseif arch(arm64)
        let multiarch = "/usr/lib/aarch64-linux-gnu/"
    #else
        let multiarch = "/usr/lib/"
    #endif
    func installed(_ archive: String) -> Bool {
        [multiarch, "/usr/lib64/", "/usr/lib/"].contains { access($0 + archive, R_OK) == 0 }
    }
    let staticSQLite = installed("libsqlite3.a")
    let staticEdit = ["libedit.a", "libtinfo.a", "libbsd.a", "libmd.a"].allSatisfy(installed)
#else
    let staticSQLite = false
    let staticEdit = false
#endif
/// How release builds link `library`: from its static `archives` (in link order) on Linux when
/// `statically`, else shared. (Debug builds, the tests', link it shared: each target names it
/// with `.linkedLibrary`, which ../shared/tools/check-system-deps reads.)
func releaseLinking(_ library: String, statically: Bool, archives: [String]) -> [LinkerSetting] {
    guard statically else { return [.linkedLibrary(library, .when(configuration: .release))] }
    return [
        .linkedLibrary(library, .when(platforms: [.macOS], configuration: .release)),
        .unsafeFlags(
            archives.flatMap { ["-Xlinker", "-l:" + $0] }, .when(platforms: [.linux], configuration: .release)),
    ]
}

let releaseLinkerFlags =
    ["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(symbolOrder)", "-Xlinker", "--no-warn-symbol-ordering"]
    + (packRelocations ? ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] : [])
    + (staticLibstdcxx ? ["-L", Context.packageDirectory + "/scripts/link"] : [])

// Release builds optimise across the targets' borders, as they did when the Data layer was one
// module. SwiftPM's default does so only for small functions, and only for public ones: the JSON
// reading API (ChatJSON) and the SSE parser (ChatHTTP), whose generics a provider's decoder
// specialises, are public for that reason (package everywhere else), and so are ChatJSON's
// `JSONFields` (a `package` `JSONField` read each value through the runtime's generic metadata:
// reading a saved conversation of 1,000 turns took 43 M instructions, 30 M public). Without the two, a 20,000-event
// stream took a third more CPU; with them, within 1 % of the one-module build (docs/PERFORMANCE.md,
// round 26).
let crossModule: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

// The dependency rule of the clean architecture lives here: a wrong import fails to compile.
// scripts/test builds with SwiftPM's explicit import check (without it, a module that happens to
// be built already could be imported by any target), and scripts/check-layers tries every
// forbidden import and checks that this table says what the targets below declare:
//   ChatDomain        the centre: entities, ports, use cases   → (nothing of ours)
//   ChatJSON          JSON read from bytes, written to bytes   → ChatDomain
//   ChatSystem        files, processes, threads, clocks        → ChatDomain, CProcess
//   ChatCatalogue     the sampling table, read by several      → ChatDomain, ChatJSON
//   ChatHTTP          the engine: libcurl, SSE, retries        → ChatDomain, ChatJSON, ChatSystem, CCurl
//   ChatProviders     OpenAI and Anthropic over the engine     → ChatDomain, ChatJSON, ChatSystem, ChatHTTP, ChatCatalogue
//   ChatOAuth         signing in to MCP servers (OAuth 2.1)    → ChatDomain, ChatJSON, ChatSystem, ChatHTTP
//   ChatMCP           MCP servers' tools, stdio and HTTP       → ChatDomain, ChatJSON, ChatSystem, ChatHTTP, ChatOAuth
//   ChatHistory       the SQLite history                       → ChatDomain, ChatJSON, ChatSystem, ChatCatalogue, CSQLite
//   ChatAttachments   files, images and pages attached         → ChatDomain, ChatJSON, ChatSystem, ChatHTTP
//   ChatConfig        every setting decided                    → ChatDomain, ChatJSON, ChatSystem, ChatCatalogue, ChatHTTP, ChatMCP, ChatOAuth
//   ChatRendering     Markdown and code drawn for a terminal   → ChatDomain
//   ChatPresentation  REPL, renderers, wording                 → ChatDomain, ChatJSON, ChatRendering
//   chat              the composition root: sees everything
// The C modules are imported `internal`, so no C type leaks out of the target that wraps it.
let package = Package(
    name: "chat",
    products: [
        .executable(name: "chat", targets: ["chat"])
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        // The history database: the system's SQLite (headers only here: ChatHistory links it,
        // shared or static, see above), through a thin layer in ChatHistory. No pkg-config: its flags would
        // name the shared library first. scripts/deps installs libsqlite3-dev.
        .systemLibrary(name: "CSQLite"),
        // The REPL's line editor (headers only; CTerminal links it). scripts/deps installs libedit-dev.
        .systemLibrary(name: "CEdit"),
        // libedit's variadic calls and an async-signal-safe signal handler, for the REPL.
        .target(
            name: "CTerminal", dependencies: ["CEdit"],
            linkerSettings: [.linkedLibrary("edit", .when(configuration: .debug))]
                + releaseLinking(
                    "edit", statically: staticEdit, archives: ["libedit.a", "libtinfo.a", "libbsd.a", "libmd.a"])
        ),
        // pipe2(O_CLOEXEC) for the MCP servers' pipes (Swift's Glibc module does not import it).
        .target(name: "CProcess"),
        .target(name: "ChatDomain", swiftSettings: crossModule),
        .target(name: "ChatJSON", dependencies: ["ChatDomain"], swiftSettings: crossModule),
        .target(name: "ChatSystem", dependencies: ["ChatDomain", "CProcess"], swiftSettings: crossModule),
        .target(name: "ChatCatalogue", dependencies: ["ChatDomain", "ChatJSON"], swiftSettings: crossModule),
        .target(
            name: "ChatHTTP", dependencies: ["ChatDomain", "ChatJSON", "ChatSystem", "CCurl"],
            swiftSettings: crossModule),
        .target(
            name: "ChatProviders", dependencies: ["ChatDomain", "ChatJSON", "ChatSystem", "ChatHTTP", "ChatCatalogue"],
            swiftSettings: crossModule),
        // Signing in to MCP servers that ask (OAuth 2.1): metadata, client registration, PKCE,
        // the one-shot loopback listener, tokens kept and refreshed.
        .target(
            name: "ChatOAuth", dependencies: ["ChatDomain", "ChatJSON", "ChatSystem", "ChatHTTP"],
            swiftSettings: crossModule),
        .target(
            name: "ChatMCP", dependencies: ["ChatDomain", "ChatJSON", "ChatSystem", "ChatHTTP", "ChatOAuth"],
            swiftSettings: crossModule),
        .target(
            name: "ChatHistory",
            dependencies: ["ChatDomain", "ChatJSON", "ChatSystem", "ChatCatalogue", "CSQLite"],
            swiftSettings: crossModule,
            linkerSettings: [.linkedLibrary("sqlite3", .when(configuration: .debug))]
                + releaseLinking("sqlite3", statically: staticSQLite, archives: ["libsqlite3.a"])
        ),
        .target(
            name: "ChatAttachments", dependencies: ["ChatDomain", "ChatJSON", "ChatSystem", "ChatHTTP"],
            swiftSettings: crossModule),
        .target(
            name: "ChatConfig",
            dependencies: [
                "ChatDomain", "ChatJSON", "ChatSystem", "ChatCatalogue", "ChatHTTP", "ChatMCP", "ChatOAuth",
            ],
            swiftSettings: crossModule),
        .target(name: "ChatRendering", dependencies: ["ChatDomain"], swiftSettings: crossModule),
        .target(
            name: "ChatPresentation", dependencies: ["ChatDomain", "ChatJSON", "ChatRendering"],
            swiftSettings: crossModule),
        .executableTarget(
            name: "chat",
            dependencies: [
                "ChatDomain", "ChatJSON", "ChatSystem", "ChatCatalogue", "ChatHTTP", "ChatProviders", "ChatMCP",
                "ChatOAuth", "ChatHistory", "ChatAttachments", "ChatConfig", "ChatRendering", "ChatPresentation",
                "CTerminal",
            ],
            linkerSettings: [.unsafeFlags(releaseLinkerFlags, .when(platforms: [.linux], configuration: .release))]
        ),
        // The SSE parser and chunk decoder alone (Benchmarks/run runs it); sees ChatProviders'
        // `@_spi(Benchmarks)` probe, nothing else that is not public.
        .executableTarget(
            name: "ParserBenchmark", dependencies: ["ChatProviders"], path: "Benchmarks/ParserBenchmark"),

        .target(name: "ChatTestSupport", dependencies: ["ChatDomain"], path: "Tests/ChatTestSupport"),
        .testTarget(name: "ChatDomainTests", dependencies: ["ChatDomain", "ChatTestSupport"]),
        .testTarget(
            name: "ChatDataTests",
            // ChatPresentation for ErrorWording: the settings' errors are facts, and the tests read
            // them as people do.
            dependencies: [
                "ChatDomain", "ChatJSON", "ChatSystem", "ChatCatalogue", "ChatHTTP", "ChatProviders", "ChatMCP",
                "ChatOAuth", "ChatHistory", "ChatAttachments", "ChatConfig", "ChatPresentation", "ChatTestSupport",
            ]),
        .testTarget(
            name: "ChatPresentationTests",
            dependencies: ["ChatPresentation", "ChatDomain", "ChatJSON", "ChatTestSupport"]),
        .testTarget(
            name: "ChatCLITests", dependencies: ["ChatTestSupport", "chat", "ChatConfig", "ChatHTTP", "ChatSystem"]),
    ],
    swiftLanguageModes: [.v6]
)
