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
        return String(cString: text).split(separator: " ").last?.split(separator: ".").compactMap { Int($0) } ?? []
    }()
    let packRelocations = glibcVersion.count >= 2 && !glibcVersion.lexicographicallyPrecedes([2, 36])
#else
    let packRelocations = false
#endif
// And they link the 18 functions of libstdc++ that Swift's runtime uses from the static
// libstdc++.a, when the compiler has one, instead of loading libstdc++.so.6 (about 1 MiB less resident
// per run): scripts/link/libstdc++.so, found first by the toolchain's -lstdc++, names it.
#if canImport(Glibc)
    let staticLibstdcxx: Bool = {
        var found = glob_t()
        defer { globfree(&found) }
        return glob("/usr/lib/gcc/*-linux-gnu*/*/libstdc++.a", 0, nil, &found) == 0 && found.gl_pathc > 0
    }()
#else
    let staticLibstdcxx = false
#endif
let releaseLinkerFlags =
    ["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(symbolOrder)", "-Xlinker", "--no-warn-symbol-ordering"]
    + (packRelocations ? ["-Xlinker", "-z", "-Xlinker", "pack-relative-relocs"] : [])
    + (staticLibstdcxx ? ["-L", Context.packageDirectory + "/scripts/link"] : [])

// The dependency rule of the clean architecture lives here: a wrong import fails to compile.
//   ChatDomain        depends on nothing of ours
//   ChatData          depends on ChatDomain, CCurl and CSQLite (imported `internal`, so no C type leaks)
//   ChatPresentation  depends on ChatDomain only
//   chat              the composition root, the one place that sees everything
let package = Package(
    name: "chat",
    products: [
        .executable(name: "chat", targets: ["chat"])
    ],
    dependencies: [
        // The command line's flags, declared once. On Linux it imports only FoundationEssentials.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2")
    ],
    targets: [
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        // The history database: the system's SQLite, through a thin layer in ChatData.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        // The REPL's line editor.
        .systemLibrary(
            name: "CEdit",
            pkgConfig: "libedit",
            providers: [.apt(["libedit-dev"]), .brew(["libedit"])]
        ),
        // libedit's variadic calls and an async-signal-safe signal handler, for the REPL.
        .target(name: "CTerminal", dependencies: ["CEdit"]),
        .target(name: "ChatDomain"),
        .target(
            name: "ChatData",
            dependencies: ["ChatDomain", "CCurl", "CSQLite"]
        ),
        .target(name: "ChatPresentation", dependencies: ["ChatDomain"]),
        .executableTarget(
            name: "chat",
            dependencies: [
                "ChatDomain", "ChatData", "ChatPresentation", "CTerminal",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: [.unsafeFlags(releaseLinkerFlags, .when(platforms: [.linux], configuration: .release))]
        ),
        // The SSE parser and chunk decoder alone (Benchmarks/run runs it); sees ChatData's
        // `@_spi(Benchmarks)` probe, nothing else that is not public.
        .executableTarget(
            name: "ParserBenchmark", dependencies: ["ChatData"], path: "Benchmarks/ParserBenchmark"),

        .target(name: "ChatTestSupport", dependencies: ["ChatDomain"], path: "Tests/ChatTestSupport"),
        .testTarget(name: "ChatDomainTests", dependencies: ["ChatDomain", "ChatTestSupport"]),
        .testTarget(
            name: "ChatDataTests",
            dependencies: ["ChatData", "ChatDomain", "ChatTestSupport"]),
        .testTarget(
            name: "ChatPresentationTests", dependencies: ["ChatPresentation", "ChatDomain", "ChatTestSupport"]),
        .testTarget(name: "ChatCLITests", dependencies: ["ChatTestSupport", "chat", "ChatData"]),
    ],
    swiftLanguageModes: [.v6]
)
