import Foundation

/// Runs blocking work (a server's stop, which waits for requests in flight) on a thread of its own and
/// awaits it, so neither the few threads that run Swift tasks nor Dispatch's workers (about one per core on
/// Linux) are held meanwhile.
///
/// - Parameter work: The blocking work; it runs once.
package func awaitOnOwnThread(_ work: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
            work()
            continuation.resume()
        }.start()
    }
}
