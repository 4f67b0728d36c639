import PokestubLocking

/// A one-shot flag that one task or thread sets and another reads: `false` until ``set()``, then `true`
/// for good.
///
/// `Sendable` through its lock (`Locked`), so it can be captured by a detached task, a Dispatch block or a server
/// thread while the test reads it.
///
/// ```swift
/// let writerDone = Flag()
/// let writer = Task.detached { defer { writerDone.set() }; ... }
/// while !writerDone.isSet { ... }
/// ```
package final class Flag: Sendable {
    private let value = Locked(false)

    /// Creates a flag that is not set.
    package init() {}

    /// Sets the flag; setting it again changes nothing.
    package func set() { value.withLock { $0 = true } }

    /// Whether ``set()`` has been called.
    package var isSet: Bool { value.withLock { $0 } }
}
