import ChatPresentation
import ChatSystem

/// The terminal tool calls are asked about on asks a server's questions too: one terminal, one
/// line editor.
extension TTYToolConsentTerminal: ServerQuestionTerminal {
    func line(_ prompt: String, initial: String) async -> String? {
        await terminal?.edit(initial, prompt: prompt)
    }

    /// The browser the environment names (`BrowserOpener`, as a sign-in opens it), on a queue of
    /// its own: it may run until the person leaves it.
    func open(_ url: String) async -> String? {
        let opener = BrowserOpener(environment: environment)
        guard opener.isAvailable else { return "no BROWSER is set, and there is no display for xdg-open" }
        let opened = await BlockingWork.run("browser", { opener.open(url) })
        return opened ? nil : "the browser could not be started (BROWSER: \(opener.commands.joined(separator: ":")))"
    }
}
