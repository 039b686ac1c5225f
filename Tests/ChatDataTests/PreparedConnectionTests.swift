import Testing

@testable import ChatHTTP

/// Which requests a connection made ahead takes, and the hand-over to the transfer waiting on it.
@Suite struct PreparedConnectionTests {
    static func request(_ method: String = "POST", url: String = "https://example.test/v1/chat/completions")
        -> HTTPRequest
    {
        HTTPRequest(
            method: method, url: url, headers: [("Authorization", "Bearer sk-test")], body: method == "GET" ? nil : [],
            connectTimeout: 10, idleTimeout: 60, proxy: nil)
    }

    static func connection() -> PreparedConnection {
        let transfer = CurlTransfer(channel: ResponseChannel(), idleTimeout: 60, registry: CurlTransferRegistry())
        return PreparedConnection(template: request(), transfer: transfer)
    }

    @Test func takesAPostToItsURLWithItsLimitsOnly() {
        let connection = Self.connection()
        func fits(_ request: HTTPRequest) -> Bool { connection.fits(request, key: request.connectionKey) }
        var body = Self.request()
        body.body = Array(#"{"model":"m"}"#.utf8)
        body.headers.append(("X-Other", "header fields may differ"))
        #expect(fits(body))
        #expect(!fits(Self.request("GET")))
        #expect(!fits(Self.request(url: "https://example.test/v1/models")))
        #expect(!fits(Self.request(url: "https://other.test/v1/chat/completions")))
        var slower = body
        slower.idleTimeout = 5
        #expect(!fits(slower))
        var compressed = body
        compressed.acceptCompression = true
        #expect(!fits(compressed))
        var proxied = body
        proxied.proxy = "http://127.0.0.1:3128"
        #expect(!fits(proxied))
    }

    @Test func theRequestHandedOverReachesTheWaitingTransferOnce() async {
        let connection = Self.connection()
        let waiting = Task.detached { connection.waitForRequest()?.request.url }
        #expect(connection.adopt(Self.request()))
        #expect(!connection.adopt(Self.request()), "a second request was taken")
        #expect(await waiting.value == Self.request().url)
        #expect(connection.close()?.url == Self.request().url)
    }

    /// A request handed over while the connection is still being made finds it new, not kept:
    /// only one that waited counts as kept (a failure on it may be sent again).
    @Test func whetherTheConnectionWaitedForItsRequest() async {
        let early = Self.connection()
        #expect(early.adopt(Self.request()))
        #expect(early.waitForRequest()?.waited == false)

        let ready = Self.connection()
        let waiting = Task.detached { ready.waitForRequest()?.waited }
        while !ready.isWaiting { await Task.yield() }
        #expect(ready.adopt(Self.request()))
        #expect(await waiting.value == true)
    }

    @Test func aClosedConnectionTakesNothingAndWakesItsTransfer() async {
        let connection = Self.connection()
        let waiting = Task.detached { connection.waitForRequest() == nil }
        #expect(connection.close() == nil)
        #expect(await waiting.value)
        #expect(!connection.adopt(Self.request()))
    }
}
