extension ChatError {
    /// Whether another server might answer where this failure came from: an overload (429, 529,
    /// `overloaded_error`), any other 5xx, or a model the server does not have, unless
    /// `modelNamedByPerson` (the person named it: their mistake stays visible). Never a request
    /// the server refused (400, 401, 403), nor a connection failure.
    public func mayBeAnsweredElsewhere(modelNamedByPerson: Bool) -> Bool {
        switch self {
        case .rateLimited, .server, .overloaded:
            return true
        case .notFound(_, _, .messageNamesModel):
            return !modelNamedByPerson
        default:
            return false
        }
    }
}
