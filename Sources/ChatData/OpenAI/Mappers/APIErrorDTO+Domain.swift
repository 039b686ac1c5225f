extension APIErrorDTO {
    /// What the error object in `body` says, for the engine; nil if `body` holds none.
    static func serverErrorDetail(in body: [UInt8]) -> ServerErrorDetail? {
        guard let json = try? JSONParser.parse(body), let error = APIErrorDTO(json: json) else { return nil }
        return ServerErrorDetail(
            message: error.message, param: error.param,
            quotaExceeded: error.code == "insufficient_quota" || error.type == "insufficient_quota")
    }
}
