import ChatTestSupport
import Foundation
import Testing

/// Trust the certificates a person configures: the built binary against an HTTPS server on
/// 127.0.0.1 whose certificate comes from a CA the test makes (as behind a company's
/// TLS-inspecting proxy or a self-hosted gateway). Refused by default, naming the trust store
/// and how to add one; trusted with `--ca-cert`, `ca_cert` (top level or profile), `SSL_CERT_FILE`
/// or `CURL_CA_BUNDLE`, in that order; mutual TLS with `--client-cert` and `--client-key`.
@Suite(.enabled(if: TestCA.isAvailable, "needs openssl (scripts/deps --tests)"))
struct TLSCommandTests {
    private func makeChat(_ environment: [String: String] = [:]) -> ChatBinary {
        ChatBinary(environment: ["OPENAI_API_KEY": "sk-tls-SECRET-0123456789"].merging(environment) { $1 })
    }

    /// A failure: status `status`, one `chat: error:` line saying every one of `saying`, no key.
    private func expectFailure(
        _ result: ChatBinary.Result, status: Int32 = 1, saying: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == status, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout == "", sourceLocation: sourceLocation)
        #expect(result.stderr.hasPrefix("chat: error: "), "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stderr.split(separator: "\n").count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        for part in saying {
            #expect(
                result.stderr.contains(part), "missing \"\(part)\" in: \(result.stderr)", sourceLocation: sourceLocation
            )
        }
        #expect(!result.stderr.contains("SECRET"), sourceLocation: sourceLocation)
    }

    private func expectAnswer(
        _ result: ChatBinary.Result, _ text: String = "secure", sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(result.status == 0, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout == text + "\n", sourceLocation: sourceLocation)
    }

    @Test func aPrivateCAIsRefusedUntilTrustedEachWay() async throws {
        let chat = makeChat()
        let ca = try await TestCA.make(chat)
        let server = try await TLSServer(chat, certificate: ca.serverCertificate, key: ca.serverKey)
        let base = ["--base-url", server.baseURL, "--retries", "2"]

        // Refused, rightly, naming the trust store used and how to add one; not retried.
        let refused = try await chat.run(base + ["hi"])
        expectFailure(
            refused,
            saying: [
                "connection failed: SSL certificate problem", "checked with the system's trust store",
                "--ca-cert FILE, ca_cert in the config, or SSL_CERT_FILE",
            ])

        // --ca-cert.
        expectAnswer(try await chat.run(["--ca-cert", ca.certificate] + base + ["hi"]))
        // ca_cert at the top level of the config, and in a profile.
        let top = try chat.writeConfig(#"{"ca_cert": "\#(ca.certificate)"}"#, name: "top.json")
        expectAnswer(try await chat.run(["--config", top] + base + ["hi"]))
        let profile = try chat.writeConfig(
            #"{"profiles": {"gateway": {"base_url": "\#(server.baseURL)", "ca_cert": "\#(ca.certificate)"}}}"#,
            name: "profile.json")
        expectAnswer(try await chat.run(["--config", profile, "--profile", "gateway", "hi"]))
        // SSL_CERT_FILE, then CURL_CA_BUNDLE.
        expectAnswer(try await makeChat(["SSL_CERT_FILE": ca.certificate]).run(base + ["hi"]))
        expectAnswer(try await makeChat(["CURL_CA_BUNDLE": ca.certificate]).run(base + ["hi"]))

        // The order: --ca-cert, then the config, then SSL_CERT_FILE, then CURL_CA_BUNDLE.
        let wrongFirst = makeChat(["SSL_CERT_FILE": ca.otherCertificate, "CURL_CA_BUNDLE": ca.certificate])
        expectFailure(
            try await wrongFirst.run(base + ["hi"]),
            saying: ["checked with \(ca.otherCertificate) (from SSL_CERT_FILE)"])
        expectAnswer(try await wrongFirst.run(["--config", top] + base + ["hi"]))
        let wrongConfig = try chat.writeConfig(#"{"ca_cert": "\#(ca.otherCertificate)"}"#, name: "wrong.json")
        expectFailure(
            try await makeChat(["SSL_CERT_FILE": ca.certificate]).run(["--config", wrongConfig] + base + ["hi"]),
            saying: ["checked with \(ca.otherCertificate) (from ca_cert in \(wrongConfig))"])
        expectAnswer(try await chat.run(["--config", wrongConfig, "--ca-cert", ca.certificate] + base + ["hi"]))
        expectFailure(
            try await chat.run(["--config", top, "--ca-cert", ca.otherCertificate] + base + ["hi"]),
            saying: ["checked with \(ca.otherCertificate) (from --ca-cert)"])
        await server.stop()
    }

    @Test func aCAFileThatIsNotThereIsASettingError() async throws {
        let chat = makeChat()
        let missing = chat.home + "/nowhere/ca.pem"
        let flag = try await chat.run(["--base-url", "https://127.0.0.1:9/v1", "--ca-cert", missing, "hi"])
        expectFailure(flag, status: 2, saying: ["the CA file \(missing) (from --ca-cert) does not exist"])
        let environment = try await makeChat(["SSL_CERT_FILE": missing]).run([
            "--base-url", "https://127.0.0.1:9/v1", "hi",
        ])
        expectFailure(environment, status: 2, saying: ["the CA file \(missing) (from SSL_CERT_FILE) does not exist"])
        // Plain http uses no certificate: an SSL_CERT_FILE set for other programs does not matter.
        let server = try LoopbackServer { _, _ in
            ServerStep.sse([ServerStep.chatChunk("plain"), ServerStep.finishChunk()])
        }
        defer { server.stop() }
        expectAnswer(try await makeChat(["SSL_CERT_FILE": missing]).run(["--base-url", server.baseURL, "hi"]), "plain")
    }

    @Test func verificationCannotBeTurnedOff() async throws {
        for flag in ["--insecure", "--no-verify", "--ssl-no-verify"] {
            let result = try await makeChat().run([flag, "hi"])
            expectFailure(result, status: 2, saying: ["unknown option \(flag)"])
        }
        // curl's -k is taken for a key flag, refused too.
        #expect(try await makeChat().run(["-k", "hi"]).status == 2)
    }

    @Test func aGatewayThatWantsAClientCertificateGetsOne() async throws {
        let chat = makeChat()
        let ca = try await TestCA.make(chat)
        let server = try await TLSServer(
            chat, certificate: ca.serverCertificate, key: ca.serverKey, clientCA: ca.certificate)
        let base = ["--base-url", server.baseURL, "--ca-cert", ca.certificate, "--retries", "0"]

        let without = try await chat.run(base + ["--retries", "2", "hi"])
        expectFailure(
            without,
            saying: ["connection failed:", "the server wants a client certificate: give it with --client-cert"])

        let with = try await chat.run(
            base + ["--client-cert", ca.clientCertificate, "--client-key", ca.clientKey, "hi"])
        expectAnswer(with, "secure chat-test-client")

        let config = try chat.writeConfig(
            """
            {"profiles": {"gateway": {"base_url": "\(server.baseURL)", "ca_cert": "\(ca.certificate)",
              "client_cert": "\(ca.clientCertificate)", "client_key": "\(ca.clientKey)"}}}
            """)
        expectAnswer(try await chat.run(["--config", config, "--profile", "gateway", "hi"]), "secure chat-test-client")

        let keyAlone = try await chat.run(base + ["--client-key", ca.clientKey, "hi"])
        expectFailure(keyAlone, status: 2, saying: ["client_key (from --client-key) needs client_cert"])
        await server.stop()
    }
}
