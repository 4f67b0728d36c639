import Dispatch
import PokestubLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Closes connections that take too long to send a request's head or body, however steadily they trickle
/// bytes in.
///
/// libmicrohttpd's idle timeout (`MHD_OPTION_CONNECTION_TIMEOUT`) starts again with every byte received, so a
/// client sending one header byte every few seconds (slowloris) would hold its connection, and one of the
/// server's connection slots, for ever. Deadlines per phase bound that, as Apache's `mod_reqtimeout` and
/// nginx's `client_header_timeout` / `client_body_timeout` do:
/// - a new connection must deliver its first request line and header fields within ``headerTimeout`` of
///   being accepted;
/// - on a kept-alive connection, a request's header fields must follow its request line within
///   ``headerTimeout``;
/// - a request body must be complete within ``bodyTimeout`` of its header fields.
///
/// While the handler works, while the response is sent and while a kept-alive connection waits for its next
/// request, only libmicrohttpd's idle timeout applies. A sweep every ``sweepInterval`` shuts overdue
/// connections down (`shutdown(2)`), so libmicrohttpd sees the peer gone and closes them as usual.
///
/// Past the connection limit, a connection is accepted into a small reserve instead of waiting in the
/// listen backlog, where a client cannot tell a full server from a slow one: its request is answered 503
/// at once (``Tracked/isOverflow``), and one that sends no request within ``overflowTimeout`` is shut down,
/// so a flood of idle connections cannot hold the reserve for long.
///
/// Safety: a sweep shuts a socket down while holding the lock that ``closed(_:)`` takes, and libmicrohttpd
/// reports a connection closed (`MHD_CONNECTION_NOTIFY_CLOSED`) before it closes the socket, so a sweep never
/// reaches a descriptor number that has already been reused for another connection.
final class ConnectionDeadlines: Sendable {
    /// Time allowed for a request's head.
    let headerTimeout: Duration
    /// Time allowed for a request's body after its head.
    let bodyTimeout: Duration
    /// How often overdue connections are looked for.
    let sweepInterval: Duration
    /// Connections served as usual; those accepted past it are overflow connections.
    let connectionLimit: Int
    /// Time an overflow connection has for its request head: one second, or the header timeout if shorter.
    let overflowTimeout: Duration

    private let open = Locked<[ObjectIdentifier: Tracked]>([:])
    private let closedCount = Locked(0)
    private let timer = Locked<SweepTimer?>(nil)

    /// The sweep's timer. `@unchecked Sendable`: dispatch sources may be cancelled from any thread.
    private struct SweepTimer: @unchecked Sendable {
        let source: any DispatchSourceTimer
    }

    /// One connection: its socket and the deadline of its current phase (monotonic nanoseconds, 0 = none).
    final class Tracked: Sendable {
        let socket: Int32
        let deadline: Locked<Int64>
        /// Whether the connection was accepted past the connection limit: its requests get 503.
        let isOverflow: Bool

        init(socket: Int32, deadline: Int64, isOverflow: Bool) {
            self.socket = socket
            self.deadline = Locked(deadline)
            self.isOverflow = isOverflow
        }
    }

    /// Creates the deadlines; nothing is swept until ``start()``.
    ///
    /// - Parameters:
    ///   - headerTimeout: Time for a request line and its header fields.
    ///   - bodyTimeout: Time for a request body after its header fields.
    ///   - connectionLimit: Connections served as usual.
    init(headerTimeout: Duration, bodyTimeout: Duration, connectionLimit: Int = .max) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.connectionLimit = connectionLimit
        overflowTimeout = min(headerTimeout, .seconds(1))
        let tenth = min(headerTimeout, bodyTimeout) / 10
        sweepInterval = min(max(tenth, .milliseconds(50)), .seconds(1))
    }

    /// Connections closed so far for missing a deadline.
    var connectionsClosed: Int { closedCount.withLock { $0 } }

    /// Connections open now, overflow connections included.
    var openConnections: Int { open.withLock { $0.count } }

    /// Starts sweeping.
    func start() {
        let source = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "pokestub.connection-deadlines"))
        let interval = DispatchTimeInterval.nanoseconds(Int(ConnectionDeadlines.nanoseconds(sweepInterval)))
        source.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(10))
        source.setEventHandler { [weak self] in self?.sweep() }
        source.resume()
        timer.withLock { $0 = SweepTimer(source: source) }
    }

    /// Stops sweeping.
    func stop() {
        timer.withLock { timer in
            timer?.source.cancel()
            timer = nil
        }
    }

    /// A connection was accepted: its first request head is due within the header timeout.
    ///
    /// - Returns: The record to keep in the connection's socket context until ``closed(_:)``.
    func opened(socket: Int32) -> Tracked {
        let now = ConnectionDeadlines.now()
        return open.withLock { open in
            let isOverflow = open.count >= connectionLimit
            let due = now + nanoseconds(isOverflow ? overflowTimeout : headerTimeout)
            let tracked = Tracked(socket: socket, deadline: due, isOverflow: isOverflow)
            open[ObjectIdentifier(tracked)] = tracked
            return tracked
        }
    }

    /// A request line arrived: its header fields are due within the header timeout (or sooner, when the
    /// connection's first request head was already due).
    func requestLineReceived(_ tracked: Tracked) {
        let due = ConnectionDeadlines.now() + nanoseconds(tracked.isOverflow ? overflowTimeout : headerTimeout)
        tracked.deadline.withLock { current in current = current == 0 ? due : min(current, due) }
    }

    /// A request libmicrohttpd may never hand over (more query arguments than its pool holds): whatever is
    /// due is due within a second (``overflowTimeout``) at the latest.
    func expedite(_ tracked: Tracked) {
        let due = ConnectionDeadlines.now() + nanoseconds(overflowTimeout)
        tracked.deadline.withLock { current in current = current == 0 ? due : min(current, due) }
    }

    /// The header fields are in: the body is due within the body timeout.
    func headersReceived(_ tracked: Tracked) {
        let due = ConnectionDeadlines.now() + nanoseconds(bodyTimeout)
        tracked.deadline.withLock { $0 = due }
    }

    /// The request is complete (its body is in, or it was answered or abandoned): no deadline until the next
    /// request line.
    func requestDone(_ tracked: Tracked) {
        tracked.deadline.withLock { $0 = 0 }
    }

    /// libmicrohttpd is closing the connection; its socket is still open.
    func closed(_ tracked: Tracked) {
        open.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(tracked)) }
    }

    /// Shuts down every connection past its deadline.
    func sweep() {
        let now = ConnectionDeadlines.now()
        let closed = open.withLock { open in
            var closed = 0
            for tracked in open.values {
                let overdue = tracked.deadline.withLock { deadline in
                    guard deadline != 0, deadline < now else { return false }
                    deadline = 0
                    return true
                }
                guard overdue else { continue }
                shutdown(tracked.socket, Int32(SHUT_RDWR))
                closed += 1
            }
            return closed
        }
        if closed > 0 { closedCount.withLock { $0 += closed } }
    }

    private func nanoseconds(_ duration: Duration) -> Int64 {
        ConnectionDeadlines.nanoseconds(duration)
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// CLOCK_MONOTONIC in nanoseconds.
    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
