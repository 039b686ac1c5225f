import ChatHTTP

extension APIErrorDTO {
    /// What an error says.
    struct Summary: Equatable {
        /// The server's words: the error's `message`, else its `type`, else "no message".
        var message: String
        var type: String?
        var param: String?
        /// The code as text (a whole number without a fraction).
        var code: String?
    }

    /// What the error says: an `error` that is an object or text, else a flat error object (with
    /// `flat`, for text already known to be an error — `event: error`, an `error:` field — a bare
    /// `{"message": …}` too); nil if it holds none.
    func summary(flat: Bool = false) -> Summary? {
        switch error {
        case .object(let detail)?: return detail.fields
        case .text(let text)?: return Summary(message: text)
        case nil: return isErrorObject == true || (flat && message != nil) ? fields : nil
        }
    }

    /// What the error says if it is what is wrong with a request: as `ServerErrorDetail`.
    var serverErrorDetail: ServerErrorDetail? {
        summary().map { error in
            ServerErrorDetail(
                message: error.message, param: error.param,
                quotaExceeded: error.code == "insufficient_quota" || error.type == "insufficient_quota")
        }
    }

    /// What the error's own fields say.
    private var fields: Summary {
        let code: String? =
            switch self.code {
            case .string(let text)?: text
            case .number(let number)?: self.code?.wholeNumber.map(String.init) ?? String(number)
            default: nil
            }
        return Summary(message: message ?? type ?? "no message", type: type, param: param, code: code)
    }
}
