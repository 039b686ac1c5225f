/// Who is asked before chat signs in to a tool server during a run, and shown where to sign in
/// (the person, on the terminal).
public protocol SignInPrompt: Sendable {
    /// Whether to open the browser to sign in to `server` (`again`: its sign-in expired and could
    /// not be renewed); nil when there is no one to ask (no terminal).
    func allowsSignIn(server: String, again: Bool) async -> Bool?

    /// The browser is on its way to `url` to sign in to `server` (`opened`), or could not be
    /// opened and the person must open `url` themselves; chat waits for the callback.
    func waiting(server: String, url: String, opened: Bool) async
}
