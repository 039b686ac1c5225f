import ChatDomain
import ChatJSON
import ChatPresentation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `ToolConsentTerminal` on the controlling terminal, asked as `-x` asks (`TTYShellTerminal`,
/// opened at the first question: by then a piped prompt has been read, and the terminal may take
/// standard input's place). `e` edits the arguments in `$VISUAL` or `$EDITOR` when one is set,
/// else on one line in the line editor, as `-x` edits a command.
final class TTYToolConsentTerminal: ToolConsentTerminal {
    let environment: [String: String]
    private let opened = Mutex<TTYShellTerminal?>(nil)

    /// The terminal, if there is one (`/dev/tty` opens); nil with no terminal at all.
    init?(environment: [String: String]) {
        #if canImport(Glibc)
            let fd = Glibc.open("/dev/tty", O_RDWR | O_CLOEXEC)
        #else
            let fd = Darwin.open("/dev/tty", O_RDWR | O_CLOEXEC)
        #endif
        guard fd >= 0 else { return nil }
        close(fd)
        self.environment = environment
    }

    var terminal: TTYShellTerminal? {
        let environment = environment
        return opened.withLock { terminal in
            if terminal == nil { terminal = TTYShellTerminal(environment: environment) }
            return terminal
        }
    }

    func key(_ question: String, among keys: String) async -> Character? {
        await terminal?.key(question, among: keys)
    }

    func edit(_ text: String) async -> String? {
        guard ShellTextEditor.configured(in: environment) == nil else {
            var editor = ShellTextEditor(environment: environment)
            (editor.purpose, editor.whenFailed) = ("editing the arguments", "the call is as it was")
            switch await editor.edit(text) {
            case .success(let edited): return edited
            case .failure(let failure):
                await say(failure.message + "\n")
                return nil
            }
        }
        // On one line for the line editor: the JSON written compactly.
        return await terminal?.edit(JSONValue(jsonText: text)?.jsonText ?? text)
    }

    func say(_ text: String) async {
        terminal?.say(text)
    }
}
