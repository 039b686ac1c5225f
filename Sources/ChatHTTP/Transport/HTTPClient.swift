/// Sends HTTP requests and streams their responses.
package protocol HTTPClient: Sendable {
    /// Starts `request`; the stream yields the head, then body pieces, and throws `DataError` on
    /// a transport failure. Ending the consumer (cancel, break) aborts the transfer.
    func send(_ request: HTTPRequest) -> HTTPResponseStream

    /// Gets a connection ready, in the background, sending nothing, for the first request like
    /// `request` (its method and URL); a failure is left for the request that follows to report.
    func preconnect(_ request: HTTPRequest)
}

extension HTTPClient {
    /// A client that keeps no connections has nothing to get ready.
    func preconnect(_ request: HTTPRequest) {}
}
