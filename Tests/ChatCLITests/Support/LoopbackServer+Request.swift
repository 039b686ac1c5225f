import ChatTestSupport
import Testing

extension LoopbackServer {
    /// Request `index`, or a recorded test failure (never a crash) when fewer arrived.
    func request(_ index: Int, sourceLocation: SourceLocation = #_sourceLocation) throws -> RecordedRequest {
        let all = requests
        try #require(all.count > index, "the server got \(all.count) requests", sourceLocation: sourceLocation)
        return all[index]
    }
}
