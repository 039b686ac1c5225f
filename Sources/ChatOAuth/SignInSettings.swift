import ChatDomain
import ChatSystem

/// What signing in to a tool server needs besides the server: where tokens are kept (nil: nowhere,
/// kept for the run only), who is asked and shown the URL, and the browser.
package struct SignInSettings: Sendable {
    package var store: TokenStore?
    package var prompt: any SignInPrompt
    package var browser: BrowserOpener
    /// How long the listener waits for the browser: 5 minutes.
    package var waitLimit: Double = 300

    package init(store: TokenStore?, prompt: any SignInPrompt, browser: BrowserOpener) {
        self.store = store
        self.prompt = prompt
        self.browser = browser
    }
}
