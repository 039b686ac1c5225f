import Foundation

/// A helper process the test starts (Python, on 127.0.0.1, an ephemeral port) that says on its
/// stdout, a line each, what happened to connections: `accept N`, `request N` (a request on
/// connection N), `tunnel N` (a proxy's CONNECT on its connection N).
final class CountingProcess: @unchecked Sendable {
    // `@unchecked`: set once in `init`, then only read.
    let port: Int
    private let process: ChatBinary.Running

    init(_ runner: ChatBinary, script: String, arguments: [String] = []) async throws {
        process = try runner.start(["-c", script] + arguments, executable: "/usr/bin/python3")
        guard await process.waitForOutput(containing: "\n", timeout: 20),
            let first = process.stdout.text.split(separator: "\n").first, let port = Int(first)
        else {
            process.signal(SIGKILL)
            let result = await process.wait(timeout: 5)
            throw TestCAError(message: "the helper server did not start: \(result.stderr)")
        }
        self.port = port
    }

    /// The lines after the port that start with `word`, each's number.
    func numbers(_ word: String) -> [Int] {
        process.stdout.text.split(separator: "\n").dropFirst().compactMap { line in
            let parts = line.split(separator: " ")
            return parts.count == 2 && parts[0] == word ? Int(parts[1]) : nil
        }
    }

    /// Ends the helper (SIGKILL: it keeps nothing worth a clean exit).
    func stop() async {
        process.signal(SIGKILL)
        _ = await process.wait(timeout: 5)
    }

    /// An HTTPS server that keeps connections alive (HTTP/1.1) and answers every POST with a
    /// short streamed answer, "turn N" for the N-th answer (from 1); `badbody N` if a request's
    /// body was not whole JSON. Arguments: certificate, key, then any of `idle-close=SECONDS`
    /// (a connection idle that long is closed, as servers do) and `drop-first` (the first
    /// request is read, then its connection closed with no answer).
    static let keepAliveTLSServer = #"""
        import http.server, itertools, json, ssl, sys, threading

        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        connections, requests, lock = itertools.count(), itertools.count(1), threading.Lock()
        options = dict(o.partition("=")[::2] for o in sys.argv[3:])
        dropped = []

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            timeout = float(options["idle-close"]) if "idle-close" in options else None

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with lock:
                    print("request", self.connection_number, flush=True)
                    try:
                        json.loads(body)
                    except ValueError:
                        print("badbody", self.connection_number, flush=True)
                    if "drop-first" in options and not dropped:
                        dropped.append(True)
                        self.close_connection = True
                        return
                    text = "turn %d" % next(requests)
                chunks = [
                    {"choices": [{"index": 0, "delta": {"content": text}}]},
                    {"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
                ]
                body = ("".join("data: %s\n\n" % json.dumps(c) for c in chunks) + "data: [DONE]\n\n").encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        class Server(http.server.ThreadingHTTPServer):
            def finish_request(self, request, client_address):
                with lock:
                    number = next(connections)
                    print("accept", number, flush=True)
                try:
                    tls = context.wrap_socket(request, server_side=True)
                except (ssl.SSLError, OSError):
                    return
                handler = Handler.__new__(Handler)
                handler.connection_number = number
                try:
                    handler.__init__(tls, client_address, self)
                except OSError:
                    pass
                finally:
                    tls.close()

        server = Server(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    /// An HTTP proxy that only tunnels (CONNECT), relaying bytes both ways.
    static let connectProxy = #"""
        import itertools, socket, threading

        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(16)
        print(listener.getsockname()[1], flush=True)

        def relay(source, target):
            try:
                while True:
                    data = source.recv(65536)
                    if not data:
                        break
                    target.sendall(data)
            except OSError:
                pass
            try:
                target.shutdown(socket.SHUT_WR)
            except OSError:
                pass

        def handle(client, number):
            head = b""
            while b"\r\n\r\n" not in head:
                data = client.recv(4096)
                if not data:
                    client.close()
                    return
                head += data
            method, target = head.split(b"\r\n")[0].decode().split()[:2]
            if method != "CONNECT":
                client.sendall(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
                client.close()
                return
            host, port = target.rsplit(":", 1)
            upstream = socket.create_connection((host, int(port)))
            print("tunnel", number, flush=True)
            client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
            threading.Thread(target=relay, args=(upstream, client), daemon=True).start()
            relay(client, upstream)

        for number in itertools.count():
            client, _ = listener.accept()
            threading.Thread(target=handle, args=(client, number), daemon=True).start()
        """#
}
