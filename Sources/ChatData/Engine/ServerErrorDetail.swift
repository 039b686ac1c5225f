/// What a provider read from the body of an error response.
struct ServerErrorDetail: Sendable, Equatable {
    /// The server's own words.
    var message: String
    /// The request parameter the error is about (`stream_options`), if the server named one.
    var param: String? = nil
    /// The account is out of quota or credit (OpenAI's `insufficient_quota`): waiting will not help.
    var quotaExceeded = false
}
