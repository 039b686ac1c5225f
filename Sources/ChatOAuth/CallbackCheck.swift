import ChatDomain

/// What the browser brought back to the listener, checked before anything in it is used: the
/// `iss` first (RFC 9207: compared byte for byte with the issuer recorded before the browser
/// went, after form-decoding only; required where the server says it sends one), then the
/// `state` (the one sent, exactly, once), then an error or the code. A callback that fails a check
/// is refused, and its code never redeemed; a server's error words are not shown unless `iss`
/// passed.
package enum CallbackCheck {
    /// The code of `query`, or why it is refused.
    package static func code(
        in query: [(name: String, value: String)], state: String, issuer: String, issuerRequired: Bool
    ) -> Result<String, SignInFailure> {
        let values = { (name: String) in query.filter { $0.name == name }.map(\.value) }
        let iss = values("iss")
        if iss.count > 1 || (iss.first.map { $0 != issuer } ?? issuerRequired) {
            return .failure(
                .wrongIssuer(
                    expected: ServerText.line(issuer, limit: 200),
                    found: iss.first.map { ServerText.line($0, limit: 200) }))
        }
        guard values("state") == [state] else { return .failure(.wrongState) }
        if let error = values("error").first {
            return .failure(
                .authorizationRefused(
                    error: ServerText.line(error, limit: 80),
                    description: values("error_description").first.map { ServerText.line($0, limit: 200) }))
        }
        let codes = values("code")
        guard codes.count == 1, let code = codes.first, !code.isEmpty else { return .failure(.noCode) }
        return .success(code)
    }
}
