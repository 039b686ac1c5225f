/// A response as its transfer delivers it: the head once, then the body in parts, each part
/// all the bytes that arrived since the consumer last asked (not one part per network read);
/// throws `DataError` on a transport failure.
///
/// Dropping the iterator (or the stream, before an iterator was made), or cancelling the task
/// that reads it, stops the transfer; the body then just ends (as an `AsyncThrowingStream` does
/// when its reader is cancelled).
package struct HTTPResponseStream: AsyncSequence, Sendable {
    package typealias Element = HTTPStreamPart

    /// A hold on the channel: when the last copy of it is gone, the transfer is told to stop.
    /// The stream has one, and each iterator one of its own.
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

    var channel: ResponseChannel { reader.channel }

    package func makeAsyncIterator() -> Iterator {
        Iterator(reader: reader, hold: Reader(reader.channel))
    }

    package struct Iterator: AsyncIteratorProtocol {
        fileprivate let reader: Reader
        /// Gone with the iterator (when a loop over the stream ends, however it ends).
        fileprivate let hold: Reader

        /// The consumer has all it wants and drops the stream next: the transfer may take the
        /// rest of the body, dropped, so its connection is kept (`ResponseChannel.stopReading`).
        package func stopReading() {
            reader.channel.stopReading()
        }

        package mutating func next() async throws -> HTTPStreamPart? {
            switch await reader.channel.next() {
            case .part(let part): return part
            case .end(nil): return nil
            case .end(let error?): throw error
            }
        }
    }
}
