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
/// Each connection's record (``Tracked``) also counts its requests in flight and knows whether the server is
/// stopping, so that libmicrohttpd's callbacks for a request take one lock each, the record's: a request
/// without a body takes three (its request line, its complete head, its completion).
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

    private let open = Locked(Open())
    private let closedCount = Locked(0)
    private let timer = Locked<SweepTimer?>(nil)

    /// The open connections, and whether the server is stopping (which every new connection's record learns).
    private struct Open {
        var connections: [ObjectIdentifier: Tracked] = [:]
        var stopping = false
    }

    /// The sweep's timer. `@unchecked Sendable`: dispatch sources may be cancelled from any thread.
    private struct SweepTimer: @unchecked Sendable {
        let source: any DispatchSourceTimer
    }

    /// One connection: its socket, the deadline of its current phase, its requests in flight, and whether the
    /// server is stopping.
    final class Tracked: Sendable {
        let socket: Int32
        let state: Locked<State>
        /// Whether the connection was accepted past the connection limit: its requests get 503.
        let isOverflow: Bool

        /// What a connection's callbacks and the sweep share.
        struct State {
            /// The deadline of the current phase, in monotonic nanoseconds; 0 for none.
            var deadline: Int64
            /// Requests whose head reached the access handler and that have not completed.
            var requestsInFlight = 0
            /// Whether the server is stopping: new requests get 503.
            var stopping: Bool
        }

        init(socket: Int32, deadline: Int64, isOverflow: Bool, stopping: Bool) {
            self.socket = socket
            self.state = Locked(State(deadline: deadline, stopping: stopping))
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
    var openConnections: Int { open.withLock { $0.connections.count } }

    /// Requests whose head reached the access handler and that have not completed, over every open connection.
    var requestsInFlight: Int {
        open.withLock { open in open.connections.values.reduce(0) { $0 + $1.state.withLock { $0.requestsInFlight } } }
    }

    /// From now on every request whose head or body completes is answered 503: the server is stopping.
    func stopAccepting() {
        open.withLock { open in
            open.stopping = true
            for tracked in open.connections.values { tracked.state.withLock { $0.stopping = true } }
        }
    }

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
            let isOverflow = open.connections.count >= connectionLimit
            let due = now + nanoseconds(isOverflow ? overflowTimeout : headerTimeout)
            let tracked = Tracked(socket: socket, deadline: due, isOverflow: isOverflow, stopping: open.stopping)
            open.connections[ObjectIdentifier(tracked)] = tracked
            return tracked
        }
    }

    /// A request line arrived: its header fields are due within the header timeout (or sooner, when the
    /// connection's first request head was already due).
    func requestLineReceived(_ tracked: Tracked) {
        let due = ConnectionDeadlines.now() + nanoseconds(tracked.isOverflow ? overflowTimeout : headerTimeout)
        tracked.state.withLock { state in state.deadline = state.deadline == 0 ? due : min(state.deadline, due) }
    }

    /// A request libmicrohttpd may never hand over (more query arguments than its pool holds): whatever is
    /// due is due within a second (``overflowTimeout``) at the latest.
    func expedite(_ tracked: Tracked) {
        let due = ConnectionDeadlines.now() + nanoseconds(overflowTimeout)
        tracked.state.withLock { state in state.deadline = state.deadline == 0 ? due : min(state.deadline, due) }
    }

    /// The request's head reached the access handler: it is in flight until ``requestCompleted(_:)``, and its
    /// body is due within the body timeout, or, for a request that declares none (or is answered at once),
    /// nothing is due until the next request line.
    ///
    /// - Returns: Whether the server is stopping.
    func headersReceived(_ tracked: Tracked, expectingBody: Bool) -> Bool {
        let due = expectingBody ? ConnectionDeadlines.now() + nanoseconds(bodyTimeout) : 0
        return tracked.state.withLock { state in
            state.requestsInFlight += 1
            state.deadline = due
            return state.stopping
        }
    }

    /// The request's body is in, or it was answered before it: nothing is due until the next request line.
    ///
    /// - Returns: Whether the server is stopping.
    func bodyReceived(_ tracked: Tracked) -> Bool {
        tracked.state.withLock { state in
            state.deadline = 0
            return state.stopping
        }
    }

    /// A request is done (answered, failed, or its client went away): nothing is due until the next request
    /// line, and, when `wasInFlight` (it reached the access handler), it no longer counts as in flight.
    func requestCompleted(_ tracked: Tracked, wasInFlight: Bool) {
        tracked.state.withLock { state in
            state.deadline = 0
            if wasInFlight { state.requestsInFlight -= 1 }
        }
    }

    /// libmicrohttpd is closing the connection; its socket is still open.
    func closed(_ tracked: Tracked) {
        open.withLock { _ = $0.connections.removeValue(forKey: ObjectIdentifier(tracked)) }
    }

    /// Shuts down every connection past its deadline.
    func sweep() {
        let now = ConnectionDeadlines.now()
        let closed = open.withLock { open in
            var closed = 0
            for tracked in open.connections.values {
                let overdue = tracked.state.withLock { state in
                    guard state.deadline != 0, state.deadline < now else { return false }
                    state.deadline = 0
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
