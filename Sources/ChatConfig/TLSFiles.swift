import ChatDomain
import ChatHTTP
import ChatSystem

/// The certificates to trust and show: a CA file from the flags, the profile or the top level,
/// else `SSL_CERT_FILE`, else `CURL_CA_BUNDLE` (as the Python clients and curl read them), else
/// the system's; a client certificate and key. For an `https://` URL each file must exist, so a
/// wrong path is a setting error rather than a failed handshake.
struct TLSFiles {
    var environment: [String: String]

    /// The TLS configuration for a request to `url` with the `decided` settings.
    func configuration(_ decided: [String: SettingsWalk.Decided], url: String) throws(SettingsError)
        -> TLSConfiguration
    {
        func file(_ key: String) -> (path: String, source: SettingSource)? {
            decided[key].flatMap { entry in entry.value.text.map { (expanded($0), entry.source) } }
        }
        var ca = file("ca_cert")
        if ca == nil, let name = ["SSL_CERT_FILE", "CURL_CA_BUNDLE"].first(where: { !(environment[$0] ?? "").isEmpty })
        {
            ca = environment[name].map { (expanded($0), .environment(name)) }
        }
        let certificate = file("client_cert")
        let key = file("client_key")
        if let key, certificate == nil {
            throw .clientKeyWithoutCertificate(keySource: key.source)
        }
        if url.lowercased().hasPrefix("https://") {
            let files: [(TLSFile, (path: String, source: SettingSource)?)] = [
                (.caCertificates, ca), (.clientCertificate, certificate), (.clientKey, key),
            ]
            for (kind, entry) in files {
                guard let entry else { continue }
                do throws(FileSystem.ReadError) {
                    try FileSystem.checkReadable(entry.path)
                } catch {
                    throw .tlsFile(kind, path: entry.path, source: entry.source, FileProblem(error))
                }
            }
        }
        return TLSConfiguration(
            caCertificate: ca?.path, caCertificateSource: ca?.source.name,
            clientCertificate: certificate?.path, clientKey: key?.path)
    }

    private func expanded(_ path: String) -> String {
        FileSystem.expandingTilde(path, home: environment["HOME"])
    }
}
