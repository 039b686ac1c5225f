import Foundation

/// A private certificate authority made for one test with the openssl command, in a directory
/// of its own: the CA, a server certificate for 127.0.0.1 and localhost, and a client
/// certificate, each signed by the CA (EC P-256 keys, valid for two days).
struct TestCA {
    let directory: String
    var certificate: String { directory + "/ca.pem" }
    var serverCertificate: String { directory + "/server.pem" }
    var serverKey: String { directory + "/server.key" }
    var clientCertificate: String { directory + "/client.pem" }
    var clientKey: String { directory + "/client.key" }
    /// A CA certificate that signed none of these, to trust the wrong one.
    var otherCertificate: String { directory + "/other-ca.pem" }

    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/openssl") }

    /// Makes the CA and its certificates with `runner`'s environment.
    static func make(_ runner: ChatBinary) async throws -> TestCA {
        let ca = TestCA(directory: runner.home + "/ca-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: ca.directory, withIntermediateDirectories: true)
        let d = ca.directory
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let authority = [
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ]
        try await openssl(
            runner,
            ["req", "-x509"] + key + [
                "-keyout", "\(d)/ca.key", "-out", "\(d)/ca.pem", "-days", "2",
                "-subj", "/CN=chat test CA",
            ] + authority)
        try await openssl(
            runner,
            ["req", "-x509"] + key + [
                "-keyout", "\(d)/other-ca.key", "-out", "\(d)/other-ca.pem",
                "-days", "2", "-subj", "/CN=another test CA",
            ] + authority)
        for (name, subject, usage, altNames) in [
            ("server", "/CN=127.0.0.1", "serverAuth", "subjectAltName=IP:127.0.0.1,DNS:localhost\n"),
            ("client", "/CN=chat-test-client", "clientAuth", ""),
        ] {
            try await openssl(
                runner,
                ["req", "-new"] + key + [
                    "-keyout", "\(d)/\(name).key", "-out", "\(d)/\(name).csr",
                    "-subj", subject,
                ])
            try "basicConstraints=CA:FALSE\nextendedKeyUsage=\(usage)\n\(altNames)".write(
                toFile: "\(d)/\(name).ext", atomically: true, encoding: .utf8)
            try await openssl(
                runner,
                [
                    "x509", "-req", "-in", "\(d)/\(name).csr", "-CA", "\(d)/ca.pem", "-CAkey",
                    "\(d)/ca.key", "-set_serial", name == "server" ? "2" : "3", "-days", "2", "-out",
                    "\(d)/\(name).pem",
                    "-extfile", "\(d)/\(name).ext",
                ])
        }
        return ca
    }

    private static func openssl(_ runner: ChatBinary, _ arguments: [String]) async throws {
        let result = try await runner.start(arguments, executable: "/usr/bin/openssl").wait(timeout: 30)
        guard result.status == 0 else {
            throw TestCAError(message: "openssl \(arguments.prefix(2).joined(separator: " ")): \(result.stderr)")
        }
    }
}

struct TestCAError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// An HTTPS server on 127.0.0.1 (Python's ssl and http.server, started by the test): answers
/// every POST with a short streamed answer, "secure", followed by the client certificate's
/// common name when one was shown. With `clientCA`, it wants a client certificate signed by it.
final class TLSServer: @unchecked Sendable {
    // `@unchecked`: set once in `init`, then only read.
    let port: Int
    private let process: ChatBinary.Running

    var baseURL: String { "https://127.0.0.1:\(port)/v1" }

    init(_ runner: ChatBinary, certificate: String, key: String, clientCA: String? = nil) async throws {
        process = try runner.start(
            ["-c", Self.script, certificate, key, clientCA ?? ""], executable: "/usr/bin/python3")
        guard await process.waitForOutput(containing: "\n", timeout: 20),
            let port = Int(process.stdout.text.trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.signal(SIGKILL)
            let result = await process.wait(timeout: 5)
            throw TestCAError(message: "the TLS server did not start: \(result.stderr)")
        }
        self.port = port
    }

    func stop() async {
        process.signal(SIGTERM)
        _ = await process.wait(timeout: 5)
    }

    private static let script = #"""
        import http.server, json, os, socket, ssl, sys

        certificate, key, client_ca = sys.argv[1], sys.argv[2], sys.argv[3]

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                peer = self.connection.getpeercert()
                name = dict(pair[0] for pair in peer["subject"]).get("commonName", "") if peer else ""
                text = "secure" + (" " + name if name else "")
                chunks = [
                    {"choices": [{"index": 0, "delta": {"content": text}}]},
                    {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                ]
                body = ("".join("data: %s\n\n" % json.dumps(c) for c in chunks) + "data: [DONE]\n\n").encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(body)))
                self.send_header("Connection", "close")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        if client_ca:
            context.verify_mode = ssl.CERT_REQUIRED
            context.load_verify_locations(client_ca)
        class Server(http.server.ThreadingHTTPServer):
            # The handshake runs in the connection's thread. When it fails (no client certificate),
            # the close lingers, as nginx's does: what the client sent is read before the socket
            # closes, so the client reads the server's alert rather than a reset (which a fast
            # client otherwise meets, curl as well, and which cannot say what went wrong).
            def finish_request(self, request, client_address):
                tls = context.wrap_socket(request, server_side=True, do_handshake_on_connect=False)
                try:
                    tls.do_handshake()
                except (ssl.SSLError, OSError):
                    raw = socket.socket(fileno=os.dup(tls.fileno()))
                    try:
                        raw.shutdown(socket.SHUT_WR)
                        raw.settimeout(2)
                        while raw.recv(65536):
                            pass
                    except OSError:
                        pass
                    raw.close()
                    tls.close()
                    return
                try:
                    super().finish_request(tls, client_address)
                finally:
                    tls.close()
        server = Server(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#
}
