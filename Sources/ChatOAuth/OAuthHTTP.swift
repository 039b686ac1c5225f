import ChatDomain
import ChatHTTP
import ChatJSON
import ChatSystem

/// The HTTP requests of a sign-in: metadata fetched, a client registered, tokens asked for. Each
/// answer is read whole (at most 1 MB); the `--verbose` lines show the request line and the
/// header fields with secrets redacted, never a body (which holds codes and tokens).
struct OAuthHTTP: Sendable {
    let network: OAuthNetwork

    /// An answer: its status, the header fields it came with, and its body.
    struct Answer {
        var status: Int
        var head: HTTPResponseHead
        var body: [UInt8]

        /// The body as JSON, when it is a JSON object.
        var object: JSONValue? {
            guard let value = try? JSONParser.parse(body), value.isObject else { return nil }
            return value
        }

        /// The OAuth error the body names (`error`, `error_description`), made safe to show.
        var oauthError: (error: String?, description: String?) {
            let object = object
            return (
                object?["error"]?.string.map { ServerText.line($0, limit: 80) },
                object?["error_description"]?.string.map { ServerText.line($0, limit: 200) }
            )
        }
    }

    static let largestAnswer = 1_048_576

    func get(_ url: String) async -> Result<Answer, SignInFailure> {
        await send("GET", url, headers: [("Accept", "application/json")], body: nil)
    }

    /// POSTs `body` as `contentType`, with `headers` besides (a client's credentials).
    func post(_ url: String, body: [UInt8], contentType: String, headers: [(String, String)] = []) async
        -> Result<Answer, SignInFailure>
    {
        let accept = headers.contains { $0.0.lowercased() == "accept" } ? [] : [("Accept", "application/json")]
        return await send("POST", url, headers: [("Content-Type", contentType)] + accept + headers, body: body)
    }

    private func send(_ method: String, _ url: String, headers: [(String, String)], body: [UInt8]?) async
        -> Result<Answer, SignInFailure>
    {
        let place = URLPlace.of(url)
        guard url.lowercased().hasPrefix("https://") || url.lowercased().hasPrefix("http://") else {
            return .failure(.badAnswer(what: "the URL \(place)"))
        }
        let request = HTTPRequest(
            method: method, url: url, headers: headers.map { (name: $0.0, value: $0.1) }, body: body,
            connectTimeout: 30, idleTimeout: 30, proxy: network.proxy, tls: network.tls)
        let diagnostics = RequestDiagnostics(
            log: network.log, proxyInUse: network.proxyInUse(url), keyHeader: "authorization",
            trustStore: network.tls.trustStore)
        var shown = request
        shown.url = place
        diagnostics.sent(shown)
        let started = MonotonicClock.nanoseconds()
        var parts = network.http.send(request).makeAsyncIterator()
        do {
            guard case .head(let head)? = try await parts.next() else {
                return .failure(.badAnswer(what: "the answer of \(place)"))
            }
            diagnostics.received(head, after: started)
            var bytes: [UInt8] = []
            while bytes.count <= Self.largestAnswer, let part = try await parts.next() {
                if case .body(let piece) = part { bytes += piece }
            }
            return .success(Answer(status: head.status, head: head, body: bytes))
        } catch let error as DataError {
            let mapper = TransportErrorMapper(proxyInUse: network.proxyInUse(url), trustStore: network.tls.trustStore)
            return .failure(.transfer(place: place, mapper.error(for: error, midStream: false)))
        } catch {
            return .failure(.cancelled)
        }
    }
}
