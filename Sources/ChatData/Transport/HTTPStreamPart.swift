/// What a transfer yields: the head once, then body bytes as they arrive.
enum HTTPStreamPart: Sendable {
    case head(HTTPResponseHead)
    case body([UInt8])
}
