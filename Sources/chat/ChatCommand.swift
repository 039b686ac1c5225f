import ChatData
import ChatDomain
import ChatPresentation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The composition root: reads the command line and environment, wires Data into
/// Presentation, and turns the outcome into an exit status.
@main
enum ChatCommand {
    static func main() async {
        // A closed pipe must end a write with EPIPE, not kill the process.
        signal(SIGPIPE, SIG_IGN)
        let status = await run(Array(CommandLine.arguments.dropFirst()))
        exit(status)
    }

    static func run(_ arguments: [String]) async -> Int32 {
        let environment = ProcessEnvironment.current()
        let stdout = FileDescriptorSink(fd: 1)
        let stderr = FileDescriptorSink(fd: 2)
        let errorStyle = TerminalStyle(isTerminal: stderr.isTerminal, environment: environment)
        func fail(_ message: String, status: Int32) -> Int32 {
            stderr.write(errorStyle.error("chat: error: \(message)") + "\n")
            return status
        }

        let options: CommandLineOptions
        do {
            options = try CommandLineParser().parse(arguments)
        } catch {
            return fail(error.message, status: 2)
        }
        switch options.action {
        case .help:
            stdout.write(HelpText.usage)
            return 0
        case .version:
            stdout.write("chat \(ChatDataVersion.string)\n")
            return 0
        case .chat:
            break
        }

        var settings: ResolvedSettings
        do {
            settings = try SettingsResolver(environment: environment).resolve(options.overrides)
        } catch {
            return fail(error.description, status: 2)
        }
        for warning in settings.warnings {
            stderr.write(errorStyle.warning("chat: warning: \(warning)") + "\n")
        }

        if options.verbose {
            let style = errorStyle
            settings.server.diagnostics = { text in stderr.write(style.dim(text) + "\n") }
        }
        let client = CurlHTTPClient()
        defer { client.shutdown() }
        let session = Session(
            environment: environment, stdout: stdout, stderr: stderr, settings: settings,
            useCase: GPTChatUseCase(repository: OpenAIGPTRepository(server: settings.server, client: client)))

        let interactive = options.interactive || (options.prompt == nil && StandardInput.isTerminal)
        if interactive {
            return await InteractiveMode(session: session).run(prompt: options.prompt)
        }
        let piped = StandardInput.isTerminal ? nil : StandardInput.readAll()
        let prompt = [options.prompt, piped].compactMap { $0 }.joined(separator: "\n\n")
        guard !prompt.isEmpty else {
            return fail("nothing to send: the piped input was empty; give a prompt (chat \"your question\")", status: 2)
        }
        return await OneShotMode(session: session).run(prompt: prompt)
    }
}
