import ChatAttachments
import ChatConfig
import ChatHTTP

/// What `-f` and `/file` attach with: files, and pages fetched from URLs over the run's client
/// with its CA file, proxy and timeouts (never its key, header fields or client certificate).
struct AttachmentReaders {
    let settings: ResolvedSettings
    let client: CurlHTTPClient
    let environment: [String: String]

    /// A reader for one message's attachments; `-` reads `standardInput` (nil: refused).
    func reader(standardInput: (@Sendable () -> [UInt8]?)? = nil) -> WebAttachmentReader {
        let (limit, takesImages) = (settings.maxFileBytes, settings.server.takesImages)
        let files = FileAttachmentReader(
            limit: limit, home: environment["HOME"], standardInput: standardInput, takesImages: takesImages,
            pdf: settings.pdf)
        let proxies = ProxyEnvironment(environment: environment)
        let configured = settings.server.proxy
        let network = WebNetwork(
            http: client, tls: settings.server.tls, proxy: configured,
            proxyInUse: { proxies.proxy(for: $0, configured: configured) },
            connectTimeout: settings.server.connectTimeout, idleTimeout: settings.server.idleTimeout,
            log: settings.server.diagnostics)
        return WebAttachmentReader(
            files: files, network: network, limit: limit, takesImages: takesImages, pdf: settings.pdf)
    }
}
