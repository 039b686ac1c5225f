import ChatDomain
import ChatSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Fills the placeholders a role's prompt may hold besides `{{input}}`: `{{shell}}`, the
/// name of the person's shell (`$SHELL`, else sh), and `{{os}}`, the operating system
/// (`/etc/os-release`'s name, else the kernel's). Read only when a prompt holds one.
public struct RolePlaceholders: Sendable {
    private let environment: [String: String]

    /// Reads `$SHELL` from `environment`.
    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// `role` with its placeholders filled.
    public func fill(_ role: PromptRole) -> PromptRole {
        guard role.prompt.contains("{{shell}}") || role.prompt.contains("{{os}}") else { return role }
        return role.filling(["shell": shell, "os": operatingSystem])
    }

    /// The shell's name: the last part of `$SHELL`, else `sh`.
    public var shell: String {
        let path = environment["SHELL"] ?? ""
        let name = path.split(separator: "/").last.map(String.init) ?? ""
        return name.isEmpty ? "sh" : name
    }

    /// `PRETTY_NAME` of `/etc/os-release` (e.g. "Debian GNU/Linux 12 (bookworm)"), else the
    /// kernel's name (`uname`).
    public var operatingSystem: String {
        if let bytes = try? FileSystem.read("/etc/os-release") {
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n")
            where line.hasPrefix("PRETTY_NAME=") {
                let value = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(where: { $0 == "\"" || $0 == "'" })
                if !value.isEmpty { return value }
            }
        }
        var names = utsname()
        uname(&names)
        let kernel = withUnsafeBytes(of: names.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return kernel.isEmpty ? "Unix" : kernel
    }
}
