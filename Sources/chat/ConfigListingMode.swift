import ChatConfig
import ChatPresentation

/// What the config offers, without talking to a server: `--list-roles`, and the profiles and
/// roles the completion scripts ask for (`--completion-values profiles|roles`).
struct ConfigListingMode {
    var console: Console

    /// The profiles `--profile` accepts, one a line.
    func profiles(configPath: String?) -> Int32 {
        do {
            let names = try SettingsResolver(environment: console.environment).profileNames(configPath: configPath)
            console.stdout.write(names.map { $0 + "\n" }.joined())
            return 0
        } catch {
            return console.fail(ErrorWording.line(for: error), status: 2)
        }
    }

    /// The roles: a table for people (`--list-roles`), JSON lines with `--json`, or the name, a
    /// tab and what the role is for a completion script.
    func roles(configPath: String?, forCompletion: Bool, json: Bool = false) -> Int32 {
        do {
            let roles = try SettingsResolver(environment: console.environment).roles(configPath: configPath)
            let stdout = console.stdout
            if json && !forCompletion {
                JSONListingPresenter(lines: JSONLines(stdout))
                    .roles(roles, samplingKeys: SettingsResolver.samplingKeys)
            } else if forCompletion {
                let keys = SettingsResolver.samplingKeys
                stdout.write(
                    roles.map { $0.name + "\t" + RoleListPresenter.description(of: $0, samplingKeys: keys) + "\n" }
                        .joined())
            } else {
                let style = TerminalStyle(isTerminal: stdout.isTerminal, environment: console.environment)
                RoleListPresenter(output: stdout, style: style, samplingKeys: SettingsResolver.samplingKeys).show(roles)
            }
            return 0
        } catch {
            return console.fail(ErrorWording.line(for: error), status: 2)
        }
    }
}
