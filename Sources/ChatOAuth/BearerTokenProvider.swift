import ChatDomain

/// Where an MCP server's requests get their `Authorization: Bearer` token, and who settles the
/// server's refusal of one (a 401, or a 403 asking for more scope).
package protocol BearerTokenProvider: Sendable {
    /// The token to send now (refreshed first when it expires within a minute); nil when there is
    /// none.
    func token() async -> String?

    /// The server answered `status` (401 or 403) with `challenge` (its `WWW-Authenticate`) to a
    /// request that carried `sent`: refreshes, or signs in again (asking first during a run).
    /// Nil when there is a token to send the request again with; else why there is none.
    func settle(status: Int, challenge: String?, sent: String?) async -> SignInFailure?
}
