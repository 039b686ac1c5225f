import Synchronization

/// The last signal that arrived, shared with the signal queue.
final class SignalRecord: Sendable {
    private let value = Atomic<Int32>(0)

    func store(_ number: Int32) {
        value.store(number, ordering: .relaxed)
    }

    var last: Int32? {
        let number = value.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }
}
