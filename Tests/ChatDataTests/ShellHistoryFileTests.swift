import Foundation
import Testing

@testable import ChatSystem

@Suite struct ShellHistoryFileTests {
    private let home = NSTemporaryDirectory() + "chat-shell-history-\(UUID().uuidString)"

    private func appended(_ environment: [String: String], _ command: String) throws -> (path: String, text: String) {
        let file = try #require(ShellHistoryFile(environment: environment.merging(["HOME": home]) { $1 }))
        try FileManager.default.createDirectory(
            atPath: (file.path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        #expect(file.append(command, at: 1_800_000_000) == nil)
        return (file.path, try String(contentsOfFile: file.path, encoding: .utf8))
    }

    @Test func eachShellInItsOwnFormatAndPlace() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        let bash = try appended(["SHELL": "/bin/bash"], "ls -la")
        #expect(bash == (home + "/.bash_history", "ls -la\n"))
        let zsh = try appended(["SHELL": "/usr/bin/zsh"], "for f in *; do\necho $f; done")
        #expect(zsh == (home + "/.zsh_history", ": 1800000000:0;for f in *; do\\\necho $f; done\n"))
        let fish = try appended(["SHELL": "/usr/bin/fish"], "echo a\\b")
        #expect(fish == (home + "/.local/share/fish/fish_history", "- cmd: echo a\\\\b\n  when: 1800000000\n"))
        let custom = try appended(["SHELL": "/bin/bash", "HISTFILE": home + "/mine"], "pwd")
        #expect(custom == (home + "/mine", "pwd\n"))
        #expect(FileSystem.mode(home + "/mine") == 0o600)
        #expect(ShellHistoryFile(environment: ["SHELL": "/bin/dash", "HOME": home]) == nil)
    }
}
