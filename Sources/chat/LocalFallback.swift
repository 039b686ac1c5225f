import ChatConfig

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `scripts/chat`'s question, asked with the hidden `chat --local-fallback ARGUMENTS…` (exit 0
/// for yes, 1 for no): would `chat ARGUMENTS…` send a request (a chat or `--models`) while
/// nothing names a server or a key — no `OPENAI_API_KEY`, no `ANTHROPIC_API_KEY` (with which chat
/// goes to Anthropic by itself: `SettingsResolver`), no `OPENAI_BASE_URL`, no config file
/// at its default place, and no `--base-url`, `--profile` or `--config` among the options? Then
/// the script runs it with the small local model. The arguments are read by the real parser;
/// ones that do not parse get no: chat itself says what is wrong with them.
struct LocalFallback {
    let environment: [String: String]

    func applies(to arguments: [String]) -> Bool {
        guard SettingsResolver.serverVariables.allSatisfy({ (environment[$0] ?? "").isEmpty }) else { return false }
        if let config = SettingsResolver(environment: environment).defaultConfigPath, access(config, F_OK) == 0 {
            return false
        }
        guard let options = try? CommandLineParser().parse(arguments) else { return false }
        guard options.action == .chat || options.action == .models else { return false }
        let overrides = options.overrides
        return !overrides.sets("base_url") && overrides.profile == nil && overrides.configPath == nil
    }
}
