/// What a provider read from the body of an error response.
package struct ServerErrorDetail: Sendable, Equatable {
    /// The server's own words.
    package var message: String
    /// The request parameter the error is about (`stream_options`), if the server named one.
    package var param: String? = nil
    /// The account is out of quota or credit (OpenAI's `insufficient_quota`): waiting will not help.
    package var quotaExceeded = false

    /// What an error body said.
    package init(message: String, param: String? = nil, quotaExceeded: Bool = false) {
        self.message = message
        self.param = param
        self.quotaExceeded = quotaExceeded
    }
}
