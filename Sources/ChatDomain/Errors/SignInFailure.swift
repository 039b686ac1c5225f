/// Why signing in to a tool server (OAuth 2.1, as MCP's authorization spec has it) gave chat no
/// token, or why a server's token could not be used, as facts. What a server said (an OAuth
/// `error` and its `error_description`) is held made safe; a token never is.
public enum SignInFailure: Error, Sendable, Equatable {
    /// The server needs a sign-in and there is no terminal to ask on.
    case noTerminal
    /// The person said no to signing in.
    case declined
    /// The person stopped the sign-in (Ctrl-C).
    case cancelled
    /// No callback came within this many minutes.
    case timedOut(minutes: Int)
    /// The server's protected-resource metadata (RFC 9728) could not be found (at `place`, the
    /// last URL tried).
    case noResourceMetadata(place: String)
    /// The protected-resource metadata names no authorization server.
    case noAuthorizationServer
    /// The authorization server's metadata could not be found for `issuer`.
    case noServerMetadata(issuer: String)
    /// Its metadata says issuer `found` where `expected` was asked for: not used.
    case issuerMismatch(expected: String, found: String)
    /// The authorization server does not advertise PKCE with S256: chat does not go on.
    case noPKCE(issuer: String)
    /// The authorization server offers no way for chat to register: it needs a pre-registered
    /// client (`oauth.client_id` in the server's entry).
    case needsPreRegisteredClient
    /// The registration endpoint refused chat (its status, OAuth `error` and description).
    case registrationRefused(status: Int, error: String?, description: String?)
    /// The callback came with a `state` that is not the one sent: refused, the code not redeemed.
    case wrongState
    /// The callback's `iss` (RFC 9207) is not the recorded issuer (nil: absent where the server
    /// says it sends one): refused, the code not redeemed.
    case wrongIssuer(expected: String, found: String?)
    /// The authorization server sent the browser back with an error (`access_denied`…).
    case authorizationRefused(error: String, description: String?)
    /// The callback came with neither a code nor an error.
    case noCode
    /// The token endpoint refused (its status, OAuth `error` and description).
    case tokenRefused(status: Int, error: String?, description: String?)
    /// A refresh of the stored tokens was refused (its OAuth `error` and description).
    case refreshRefused(error: String?, description: String?)
    /// An endpoint's answer is not what OAuth says (`what`: which answer).
    case badAnswer(what: String)
    /// A request to `place` failed in transfer (refused, a certificate, a timeout…).
    case transfer(place: String, ChatError)
    /// The loopback listener for the callback could not be opened (the system's reason).
    case noListener(reason: String)
    /// The server refused the token chat got (HTTP status), signed in or not.
    case tokenNotAccepted(status: Int)
    /// The token file can be read by others (its permission bits): chat does not use it.
    case storeNotPrivate(path: String, mode: UInt32)
    /// The token file could not be read, or is not chat's JSON (the reason).
    case storeUnreadable(path: String, reason: String)
    /// The token file could not be written (the system's reason).
    case storeNotWritten(path: String, reason: String)
    /// There is no data directory to keep tokens in (neither `XDG_DATA_HOME` nor `HOME`).
    case noDataDirectory
}
