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

        let settings: ResolvedSettings
        do {
            settings = try SettingsResolver(environment: environment).resolve(options.overrides)
        } catch {
            return fail(error.description, status: 2)
        }
        for warning in settings.warnings {
            stderr.write(errorStyle.warning("chat: warning: \(warning)") + "\n")
        }

        let piped = StandardInput.isTerminal ? nil : StandardInput.readAll()
        let prompt = [options.prompt, piped].compactMap { $0 }.joined(separator: "\n\n")
        guard !prompt.isEmpty else {
            let hint = StandardInput.isTerminal ? "chat \"your question\"" : "the piped input was empty"
            return fail("nothing to send: give a prompt (\(hint)); see chat --help", status: 2)
        }

        let client = CurlHTTPClient()
        let repository = OpenAIGPTRepository(server: settings.server, client: client)
        let useCase = GPTChatUseCase(repository: repository)
        let presenter = OneShotPresenter(useCase: useCase, output: stdout, notes: stderr, notesStyle: errorStyle)
        let conversation = Conversation(
            systemPrompt: settings.systemPrompt,
            settings: ChatSettings(
                model: settings.model, temperature: settings.temperature, maxTokens: settings.maxTokens,
                stream: settings.stream))

        let signals = SignalWatcher()
        let task = Task { [conversation] in
            var conversation = conversation
            return await presenter.run(prompt, in: &conversation)
        }
        signals.start { _ in task.cancel() }
        let outcome = await task.value
        client.shutdown()

        switch outcome {
        case .answered, .outputClosed:
            return 0
        case .failed:
            return 1
        case .interrupted:
            return SignalWatcher.exitStatus(for: signals.lastSignal ?? SIGINT)
        }
    }
}
