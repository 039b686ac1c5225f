/// What a transfer yields: the head once, then body bytes as they arrive.
package enum HTTPStreamPart: Sendable {
    case head(HTTPResponseHead)
    case body([UInt8])
}
