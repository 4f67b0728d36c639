/// What pokestub keeps for one connection, in libmicrohttpd's socket context from the connection's start
/// (`MHD_CONNECTION_NOTIFY_STARTED`) to its close: its deadlines, its peer's address, and its current
/// request's context.
///
/// A connection carries one request at a time, so its current request's context lives here rather than in a
/// map shared by every connection (which cost a lock and a hash on every request). libmicrohttpd calls
/// `requestCompleted` only for requests that reached the access handler; one it refuses while still reading
/// the head (a field without a colon, more query arguments than its memory pool holds) never completes, so
/// its context is released when the connection's next request starts, or when the connection closes
/// (LeakSanitizer found one such context holding a 20 KB URL).
///
/// `@unchecked Sendable`: the current context is read and written only from libmicrohttpd's callbacks for
/// this connection, which libmicrohttpd makes one at a time on the thread that owns the connection (every
/// connection belongs to one thread of its pool), so it needs no lock.
final class ConnectionRecord: @unchecked Sendable {
    /// The connection's deadlines.
    let deadlines: ConnectionDeadlines.Tracked
    /// The peer's IP address as text (`127.0.0.1`), read once when the connection was accepted.
    let clientAddress: String?
    private var current: Unmanaged<RequestContext>?

    init(deadlines: ConnectionDeadlines.Tracked, clientAddress: String?) {
        self.deadlines = deadlines
        self.clientAddress = clientAddress
    }

    /// Makes `context` the connection's current request context, releasing one left by a request that never
    /// completed. The record owns a context's reference only once its request is known never to complete
    /// (here, and in ``close()``); a request that completes gives it up in `requestCompleted`.
    func start(_ context: Unmanaged<RequestContext>) {
        let dead = current
        current = context
        dead?.release()
    }

    /// Forgets the current context if it is `pointer`: its request completed and its reference is released
    /// by the caller.
    func complete(_ pointer: UnsafeMutableRawPointer) {
        if current?.toOpaque() == pointer { current = nil }
    }

    /// Releases a context whose request never completed; called when the connection closes, which
    /// libmicrohttpd reports after the completion of any request that did complete.
    func close() {
        let left = current
        current = nil
        left?.release()
    }
}
