import Foundation
import Testing

/// The repository's `scripts/…`.
func repositoryScript(_ name: String) -> String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/\(name)").path
}

/// A directory tree as text: each entry's path, type, mode and (for a file) its bytes, so two
/// listings are equal only when nothing was added, removed or changed.
func snapshot(_ root: String) -> [String] {
    let manager = FileManager.default
    var lines: [String] = []
    for path in ((manager.subpaths(atPath: root) ?? []) + [""]).sorted() {
        let full = path.isEmpty ? root : root + "/" + path
        var info = stat()
        guard lstat(full, &info) == 0 else { continue }
        let mode = String(info.st_mode & 0o7777, radix: 8)
        if info.st_mode & S_IFMT == S_IFDIR {
            lines.append("\(path)/ \(mode)")
        } else {
            // FNV-1a over the bytes.
            let bytes = manager.contents(atPath: full) ?? Data()
            let hash = bytes.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
            lines.append("\(path) \(mode) \(bytes.count) \(hash)")
        }
    }
    return lines
}

/// `scripts/install --prefix DIR --binary <the built chat>` and `--uninstall`, into temporary
/// prefixes: what it installs, with which modes, what it prints and warns, and that uninstall
/// leaves the prefix as it was.
@Suite struct InstallTests {
    static let script = repositoryScript("install")

    /// What the install puts in a prefix, relative to it.
    static let installed = [
        "bin/chat", "bin/chat-local-model", "share/bash-completion/completions/chat",
        "share/zsh/site-functions/_chat", "share/fish/vendor_completions.d/chat.fish", "share/man/man1/chat.1",
        "lib/chat/deps", "lib/chat/installed-files",
    ]

    /// A fresh prefix directory inside the home of `chat` (which the test removes).
    private func prefix(_ chat: ChatBinary, _ name: String = "prefix") throws -> String {
        let path = chat.home + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func install(_ chat: ChatBinary, _ prefix: String, _ more: [String] = []) async throws -> ChatBinary.Result
    {
        try await chat.run(program: Self.script, ["--prefix", prefix, "--binary", ChatBinary.path] + more)
    }

    private func mode(_ path: String) -> Int? {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_mode & 0o7777) : nil
    }

    @Test func installsEachFileWithItsModeAndSaysWhere() async throws {
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let prefix = try prefix(chat)
        let result = try await install(chat, prefix)
        #expect(result.status == 0, "\(result.stderr)")

        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Installed \(try await chat.run(["--version"]).stdout.dropLast()) into \(prefix):")
        for file in Self.installed {
            let path = prefix + "/" + file
            #expect(FileManager.default.fileExists(atPath: path), "\(file)")
            #expect(lines.contains { $0.hasPrefix("  " + path + " ") }, "no line says where \(file) went")
            let program = file.hasPrefix("bin/") || file == "lib/chat/deps"
            #expect(mode(path) == (program ? 0o755 : 0o644), "\(file)")
        }
        #expect(result.stdout.contains("the program (stripped, "))

        // The binary runs from the prefix, stripped (no symbol table left).
        let version = try await chat.run(program: prefix + "/bin/chat", ["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("chat "))
        let symbols = try await chat.run(program: "/usr/bin/nm", [prefix + "/bin/chat"])
        #expect(symbols.stderr.contains("no symbols"), "\(symbols.stderr)")

        // The completions and the man page are what the binary writes; the local model's script
        // is scripts/local-model.
        for (file, arguments) in [
            ("share/bash-completion/completions/chat", ["--completions", "bash"]),
            ("share/zsh/site-functions/_chat", ["--completions", "zsh"]),
            ("share/fish/vendor_completions.d/chat.fish", ["--completions", "fish"]),
            ("share/man/man1/chat.1", ["--man-page"]),
        ] {
            let expected = try await chat.run(arguments).stdout
            #expect(try String(contentsOfFile: prefix + "/" + file, encoding: .utf8) == expected, "\(file)")
        }
        #expect(
            FileManager.default.contentsEqual(
                atPath: prefix + "/bin/chat-local-model", andPath: repositoryScript("local-model")))
        #expect(FileManager.default.contentsEqual(atPath: prefix + "/lib/chat/deps", andPath: repositoryScript("deps")))
        let bash = try await chat.run(program: "/bin/bash", ["-n", prefix + "/share/bash-completion/completions/chat"])
        #expect(bash.status == 0, "\(bash.stderr)")

        // The list --uninstall reads names every file, with its checksum.
        let manifest = try String(contentsOfFile: prefix + "/lib/chat/installed-files", encoding: .utf8)
        for file in Self.installed.dropLast() {
            #expect(manifest.contains(" \(prefix)/\(file)\n"), "\(file)")
        }
    }

    @Test func uninstallLeavesThePrefixAsItWas() async throws {
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let prefix = try prefix(chat)
        // What was there before: a file and directories the install also uses.
        try FileManager.default.createDirectory(atPath: prefix + "/share/man/man5", withIntermediateDirectories: true)
        try "mine\n".write(toFile: prefix + "/share/man/man5/other.5", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try "#!/bin/sh\n".write(toFile: prefix + "/bin/tool", atomically: true, encoding: .utf8)
        let before = snapshot(prefix)

        #expect(try await install(chat, prefix).status == 0)
        // A second install over the first changes nothing in what the uninstall restores.
        #expect(try await install(chat, prefix).status == 0)
        #expect(snapshot(prefix) != before)

        let result = try await chat.run(program: Self.script, ["--uninstall", "--prefix", prefix])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Removed from \(prefix):")
        for file in Self.installed { #expect(lines.contains("  \(prefix)/\(file)"), "\(file)") }
        #expect(lines.contains("  \(prefix)/share/zsh/"))
        #expect(!lines.contains { $0.contains("/bin/") && $0.hasSuffix("/") }, "bin was there before")
        #expect(snapshot(prefix) == before)

        // Nothing more to remove: one line, non-zero.
        let again = try await chat.run(program: Self.script, ["--uninstall", "--prefix", prefix])
        #expect(again.status == 1)
        #expect(
            again.stderr == "scripts/install: nothing to uninstall: \(prefix)/lib/chat/installed-files is not there\n")
    }

    @Test func uninstallKeepsWhatChangedOrWasAddedSince() async throws {
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let prefix = try prefix(chat, "fresh/prefix")
        #expect(try await install(chat, prefix).status == 0)
        let man = prefix + "/share/man/man1/chat.1"
        try "edited\n".write(toFile: man, atomically: true, encoding: .utf8)
        try "added\n".write(toFile: prefix + "/bin/added", atomically: true, encoding: .utf8)

        let result = try await chat.run(program: Self.script, ["--uninstall", "--prefix", prefix])
        #expect(result.status == 1)
        #expect(result.stderr == "scripts/install: left \(man): it changed since scripts/install put it there\n")
        // Those two stay, with the directories that hold them; the other directories it made are
        // gone.
        #expect(
            (FileManager.default.subpaths(atPath: prefix) ?? []).sorted() == [
                "bin", "bin/added", "share", "share/man", "share/man/man1", "share/man/man1/chat.1",
            ])
    }

    @Test func aFileItDidNotInstallStopsTheInstallBeforeAnythingIsWritten() async throws {
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let prefix = try prefix(chat)
        try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
        try "#!/bin/sh\necho another chat\n".write(toFile: prefix + "/bin/chat", atomically: true, encoding: .utf8)
        let before = snapshot(prefix)
        let result = try await install(chat, prefix)
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "scripts/install: \(prefix)/bin/chat is already there, and scripts/install did not put it there; "
                + "move it away first (nothing was installed)\n")
        #expect(snapshot(prefix) == before)
    }

    @Test func warnsWhenTheBinDirectoryIsNotOnPath() async throws {
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let prefix = try prefix(chat)
        let result = try await install(chat, prefix)
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "scripts/install: warning: \(prefix)/bin is not on PATH, so a shell does not find chat there; "
                + "add it, e.g. in ~/.profile: export PATH=\"\(prefix)/bin:$PATH\"\n")

        var onPath = chat
        onPath.environment["PATH"] = prefix + "/bin:/usr/bin:/bin"
        let quiet = try await install(onPath, prefix)
        #expect(quiet.status == 0)
        #expect(quiet.stderr == "")
    }

    @Test func warnsWhenAnotherChatComesFirstOnPathAndNamesItsPackage() async throws {
        var chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let prefix = try prefix(chat)
        // ppp's chat, and a dpkg that knows it (the real one is asked the same way).
        let other = try self.prefix(chat, "sbin")
        try "#!/bin/sh\nexit 0\n".write(toFile: other + "/chat", atomically: true, encoding: .utf8)
        try "#!/bin/sh\n[ \"$1\" = -S ] && [ \"$2\" = \(other)/chat ] && echo 'ppp: \(other)/chat' && exit 0\nexit 1\n"
            .write(toFile: other + "/dpkg", atomically: true, encoding: .utf8)
        for file in ["chat", "dpkg"] { chmod(other + "/" + file, 0o755) }
        chat.environment["PATH"] = "\(other):\(prefix)/bin:/usr/bin:/bin"

        let result = try await install(chat, prefix)
        #expect(result.status == 0)
        #expect(
            result.stderr
                == "scripts/install: warning: chat on PATH is \(other)/chat (from the Debian package ppp), not "
                + "\(prefix)/bin/chat; put \(prefix)/bin before \(other) on PATH, or run \(prefix)/bin/chat\n")
    }

    @Test func badOptionsAreOneLineAndStatusTwo() async throws {
        let chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let unknown = try await chat.run(program: Self.script, ["--prefx", "/tmp/x"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.hasPrefix("scripts/install: unknown option --prefx\nscripts/install: usage: "))
        let missing = try await chat.run(program: Self.script, ["--prefix"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("scripts/install: --prefix needs a value\n"))
        let notABinary = try await chat.run(
            program: Self.script, ["--prefix", chat.home + "/p", "--binary", chat.home])
        #expect(notABinary.status == 1)
        #expect(notABinary.stderr == "scripts/install: --binary \(chat.home) is not an executable file\n")
    }

    @Test func theDefaultPrefixIsDotLocalInHomeForAUser() async throws {
        var chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        // Not root, even when the tests run as root (whose prefix is /usr/local).
        let fake = try prefix(chat, "fake")
        try "#!/bin/sh\necho 1000\n".write(toFile: fake + "/id", atomically: true, encoding: .utf8)
        chmod(fake + "/id", 0o755)
        chat.environment["PATH"] = fake + ":/usr/bin:/bin"
        let result = try await chat.run(program: Self.script, ["--binary", ChatBinary.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("Installed chat "))
        #expect(result.stdout.contains(" into \(chat.home)/.local:\n"))
        #expect(FileManager.default.isExecutableFile(atPath: chat.home + "/.local/bin/chat"))
        let uninstall = try await chat.run(program: Self.script, ["--uninstall"])
        #expect(uninstall.status == 0)
        #expect(!FileManager.default.fileExists(atPath: chat.home + "/.local"))
    }

    @Test func anInstalledChatNamesChatLocalModelWhenThereIsNoKey() async throws {
        var chat = ChatBinary()
        defer { try? FileManager.default.removeItem(atPath: chat.home) }
        let prefix = try prefix(chat)
        #expect(try await install(chat, prefix).status == 0)
        let outside = try await chat.run(program: prefix + "/bin/chat", ["hello"])
        #expect(outside.status == 2)
        #expect(
            outside.stderr.contains(
                "or use a local server: \(prefix)/bin/chat-local-model start, then chat --profile local"))
        chat.environment["PATH"] = prefix + "/bin:/usr/bin:/bin"
        let onPath = try await chat.run(program: prefix + "/bin/chat", ["hello"])
        #expect(onPath.stderr.contains("or use a local server: chat-local-model start, then chat --profile local"))
        // From the checkout's build, the checkout's script.
        let built = try await chat.run(["hello"])
        #expect(built.stderr.contains("or use a local server: scripts/local-model start, then chat --profile local"))
        // The installed script calls itself by its installed name.
        let usage = try await chat.run(program: prefix + "/bin/chat-local-model", ["--bogus"])
        #expect(usage.stderr.contains("chat-local-model status"))
        #expect(!usage.stderr.contains("scripts/local-model"))
    }
}
