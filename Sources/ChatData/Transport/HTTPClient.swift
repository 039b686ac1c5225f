/// Sends HTTP requests and streams their responses.
protocol HTTPClient: Sendable {
    /// Starts `request`; the stream yields the head, then body pieces, and throws `DataError` on
    /// a transport failure. Ending the consumer (cancel, break) aborts the transfer.
    func send(_ request: HTTPRequest) -> HTTPResponseStream
}
