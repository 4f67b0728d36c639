/// A value behind a mutex: every read and write of it happens inside ``withLock(_:fileID:line:)``, one thread at a time.
///
/// pokestub's one lock type, used by every target instead of `Synchronization.Mutex` and `Atomic`, which
/// need macOS 15 and iOS 18: with this type the libraries apps link (`PokemonClient`, `PokestubClient`) build
/// for macOS 13 and iOS 16, and the daemon uses the same lock on the same floors (as SwiftNIO's `NIOLock`
/// and `NIOLockedValueBox` do). It imports only the C library, so it builds for every Apple platform and
/// Linux.
///
/// The lock is a POSIX mutex, `pthread_mutex_t`, on Linux (glibc) and on Darwin alike: Apple documents it in
/// the pthread_mutex_lock(3) manual page
/// (<https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man3/pthread_mutex_lock.3.html>)
/// and POSIX in <https://pubs.opengroup.org/onlinepubs/9799919799/functions/pthread_mutex_lock.html>. The
/// mutex lives in the same heap allocation as the value (tail-allocated in a `ManagedBuffer`, so its address
/// never moves, as POSIX requires), allocated once in ``init(_:)``; taking the lock allocates nothing, and
/// ``withLock(_:fileID:line:)`` is inlinable, so each call site is specialized for its value type.
///
/// The lock is not recursive: calling ``withLock(_:fileID:line:)`` again on the same value from inside its closure is a
/// programming error. Debug builds make the mutex `PTHREAD_MUTEX_ERRORCHECK`, so that stops with a
/// precondition failure (`EDEADLK`) instead of hanging; release builds use the default, cheaper kind.
///
/// `Locked` has reference semantics: copies share one value and one lock. It is `Sendable` whatever the value
/// is, on the terms of `Synchronization.Mutex`: the value goes in as `sending` and comes out of
/// ``withLock(_:fileID:line:)`` only as `sending`, so the compiler keeps it from being shared outside the lock.
///
/// ```swift
/// let hits = Locked([String: Int]())
/// hits.withLock { $0["/api/v2/pokemon/1/", default: 0] += 1 }
/// let total = hits.withLock { hits in hits.values.reduce(0, +) }
/// ```
package struct Locked<Value>: @unchecked Sendable {
    @usableFromInline let storage: LockStorage<Value>

    /// Puts `initialValue` behind a new mutex.
    ///
    /// - Parameter initialValue: The value; from now on reached only through ``withLock(_:fileID:line:)``.
    package init(_ initialValue: consuming sending Value) {
        storage = LockStorage.make(holding: initialValue)
    }

    /// Takes the lock, runs `body` with the value, and releases the lock when `body` returns or throws.
    ///
    /// - Parameters:
    ///   - body: Reads or changes the value; it must not call ``withLock(_:fileID:line:)`` on the same `Locked`.
    ///   - fileID: The call site, which debug builds count in ``LockCensus``; release builds ignore it.
    ///   - line: The call site's line, likewise.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, after the lock is released.
    @inlinable
    package func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result, fileID: StaticString = #fileID, line: UInt = #line
    ) throws(E) -> sending Result {
        #if DEBUG
            let tally = LockCensus.willAcquire(fileID: fileID, line: line)
            defer { tally.released() }
        #endif
        storage.lock()
        defer { storage.unlock() }
        return try body(&storage.header)
    }
}
