import Synchronization

/// Counts the transfer threads that are running, so the process can end them before it exits,
/// and holds their channels, so that ending them wakes a transfer waiting for its consumer.
final class CurlTransferRegistry: Sendable {
    let active = Atomic<Int>(0)
    let abortAll = Atomic<Bool>(false)
    private let channels = Mutex<[ObjectIdentifier: ResponseChannel]>([:])

    func add(_ channel: ResponseChannel) {
        channels.withLock { $0[ObjectIdentifier(channel)] = channel }
        if abortAll.load(ordering: .relaxed) { channel.abort() }
    }

    func remove(_ channel: ResponseChannel) {
        _ = channels.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    /// Stops every transfer, also one waiting for its consumer to make room.
    func abortEveryTransfer() {
        abortAll.store(true, ordering: .relaxed)
        for channel in channels.withLock({ Array($0.values) }) { channel.abort() }
    }
}
