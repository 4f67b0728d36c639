import PokestubLocking

/// Counts tasks that finished, from any thread.
final class Finished: Sendable {
    private let value = Locked(0)
    func mark() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
