import Synchronization

/// Counts tasks that finished, from any thread.
final class Finished: Sendable {
    private let value = Mutex(0)
    func mark() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
