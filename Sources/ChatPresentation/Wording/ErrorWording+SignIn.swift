import ChatDomain

extension ErrorWording {
    /// Why a run goes on without `server`'s tools for want of a sign-in, with the command that
    /// signs in (`server` nil: the model is told, without the command).
    static func signInNeeded(_ failure: SignInFailure, server: String?) -> String {
        let command = server.map { " chat --tools-login " + shellWord($0) }
        switch failure {
        case .noTerminal:
            return "it needs you to sign in" + (command.map { ": run" + $0 } ?? "")
        case .declined:
            return "not signed in (you said no)" + (command.map { "; sign in with" + $0 } ?? "")
        case .refreshRefused:
            return line(for: failure) + (command.map { "; sign in again with" + $0 } ?? "")
        default:
            return "could not sign in: " + line(for: failure) + (command.map { "; try" + $0 } ?? "")
        }
    }

    /// What went wrong with a sign-in, as one clause.
    public static func line(for failure: SignInFailure) -> String {
        switch failure {
        case .noTerminal: return "it needs you to sign in, and there is no terminal to ask on"
        case .declined: return "you said no to signing in"
        case .cancelled: return "the sign-in was stopped"
        case .timedOut(let minutes):
            return "no answer came back from the browser within \(Counted.text(minutes, "minute"))"
        case .noResourceMetadata(let place):
            return "found no OAuth metadata for it (tried up to \(place)): it may not ask for a sign-in"
        case .noAuthorizationServer: return "its OAuth metadata names no authorization server"
        case .noServerMetadata(let issuer): return "found no metadata for its authorization server \(issuer)"
        case .issuerMismatch(let expected, let found):
            return "the metadata of authorization server \(expected) says its issuer is \(found): not used"
        case .noPKCE(let issuer):
            return "its authorization server \(issuer) does not support PKCE (S256), which MCP requires: chat does "
                + "not sign in without it"
        case .needsPreRegisteredClient:
            return "the server needs a pre-registered client: add oauth.client_id to its entry"
        case .registrationRefused(let status, let error, let description):
            return "its authorization server refused to register chat (HTTP \(status)\(oauth(error, description)))"
        case .wrongState:
            return "the browser came back with a state that is not the one chat sent: refused, the code not used"
        case .wrongIssuer(let expected, let found?):
            return "the browser came back from issuer \(found), not \(expected): refused, the code not used"
        case .wrongIssuer(let expected, nil):
            return
                "the browser came back without the issuer (iss) that \(expected) promises: refused, the code not used"
        case .authorizationRefused(let error, let description):
            return "the authorization server said no (\(error)\(description.map { ": " + $0 } ?? ""))"
        case .noCode: return "the browser came back without an authorization code"
        case .tokenRefused(let status, let error, let description):
            return "the token endpoint refused (HTTP \(status)\(oauth(error, description)))"
        case .refreshRefused(let error, let description):
            return "its sign-in expired and could not be renewed"
                + (error == nil && description == nil ? "" : " (" + oauth(error, description).dropFirst(2) + ")")
        case .badAnswer(let what): return "\(what) is not what OAuth says it should be"
        case .transfer(let place, .connection(let failure, let message)):
            return place + ": " + connectionLine(failure, ServerText.line(message))
        case .transfer(let place, let error): return place + ": " + line(for: error)
        case .noListener(let reason): return "could not listen on 127.0.0.1 for the browser: \(reason)"
        case .tokenNotAccepted(let status): return "it refused the token chat signed in with (HTTP \(status))"
        case .storeNotPrivate(let path, let mode):
            return "\(path) can be read by others (mode \(String(mode, radix: 8))): chat keeps sign-in tokens "
                + "there and does not use it so; run chmod 600 \(shellWord(path))"
        case .storeUnreadable(let path, let reason): return "could not read \(path): \(reason)"
        case .storeNotWritten(let path, let reason): return "could not write \(path): \(reason)"
        case .noDataDirectory: return "there is nowhere to keep its tokens: set HOME or XDG_DATA_HOME"
        }
    }

    /// `: error: description`, whichever the server gave.
    private static func oauth(_ error: String?, _ description: String?) -> String {
        [error, description].compactMap { $0 }.map { ": " + $0 }.joined()
    }

    /// `text` as one word of a shell command: as it is when it is plain, else single-quoted.
    static func shellWord(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || "-_./".unicodeScalars.contains(scalar))
            }
        return plain ? text : "'" + ServerText.line(text, limit: 80).replacing("'", with: #"'\''"#) + "'"
    }
}
