import Foundation

/// Runs blocking work (a socket read, a paced send loop, a server's stop) on a thread of its own and awaits
/// its result, so neither a Swift task thread nor a Dispatch worker is held meanwhile.
///
/// Not `DispatchQueue.global()`: on Linux its pool runs about one thread per core and adds one for a blocked
/// worker only when its monitor notices, so a few dozen tests blocking there at once delay every other
/// Dispatch block in the process, a child process's output handlers among them, by seconds.
///
/// ```swift
/// let bytes = await onOwnThread { connection.receiveBlocking() }
/// ```
///
/// - Parameter work: The blocking work; it runs once.
/// - Returns: What `work` returned.
/// - Throws: What `work` threw.
package func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// ``onOwnThread(_:)-(()->T)`` for work that cannot throw.
package func onOwnThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}
