/// A response as its transfer delivers it: the head once, then the body in parts, each part
/// all the bytes that arrived since the consumer last asked (not one part per network read);
/// throws `DataError` on a transport failure.
///
/// Dropping the stream and its iterator, or cancelling the task that reads it, stops the
/// transfer; the body then just ends (as an `AsyncThrowingStream` does when its reader is
/// cancelled).
struct HTTPResponseStream: AsyncSequence, Sendable {
    typealias Element = HTTPStreamPart

    /// The consumer's hold on the channel: when the last copy of the stream and its iterators is
    /// gone, the transfer is told to stop.
    final class Reader: Sendable {
        let channel: ResponseChannel

        init(_ channel: ResponseChannel) {
            self.channel = channel
        }

        deinit {
            channel.cancel()
        }
    }

    private let reader: Reader

    init(_ channel: ResponseChannel) {
        reader = Reader(channel)
    }

    /// A stream that has already failed with `error`.
    init(failure error: any Error) {
        let channel = ResponseChannel()
        channel.finish(error)
        self.init(channel)
    }

    var channel: ResponseChannel { reader.channel }

    func makeAsyncIterator() -> Iterator {
        Iterator(reader: reader)
    }

    struct Iterator: AsyncIteratorProtocol {
        fileprivate let reader: Reader

        mutating func next() async throws -> HTTPStreamPart? {
            switch await reader.channel.next() {
            case .part(let part): return part
            case .end(nil): return nil
            case .end(let error?): throw error
            }
        }
    }
}
