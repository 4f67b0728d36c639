import CMicroHTTPD
import Dispatch
import Foundation
import PokestubCore
import PokestubLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Serves HTTP through libmicrohttpd and hands every request to an ``HTTPHandler``.
///
/// libmicrohttpd parses HTTP and runs a pool of threads (epoll on Linux). The handler runs synchronously on
/// those threads; a reply that must wait (a stub's fixed delay, an upstream call) suspends the connection
/// and frees the thread until the reply is ready.
///
/// ```swift
/// let listener = try HTTPListener(host: "127.0.0.1", port: 0)   // the port is known from here on
/// let server = HTTPServer(listener: listener, handler: engine)
/// try server.start()
/// server.stop()
/// ```
package final class HTTPServer: Sendable {
    /// Where the server listens.
    package let listener: HTTPListener
    /// Threads and limits.
    package let configuration: HTTPServerConfiguration
    private let core: ServerCore
    private let state = Locked(State.idle)

    private enum State {
        case idle
        case running(DaemonHandle)
        case stopped
    }

    /// Creates a server on a listening socket; no request is answered until ``start()``.
    ///
    /// - Parameters:
    ///   - listener: The listening socket.
    ///   - configuration: Threads and limits.
    ///   - handler: What answers every request.
    ///   - logger: Where connection problems are logged.
    package init(
        listener: HTTPListener, configuration: HTTPServerConfiguration = HTTPServerConfiguration(),
        handler: any HTTPHandler, logger: Logger = .disabled
    ) {
        self.listener = listener
        self.configuration = configuration
        core = ServerCore(
            handler: handler, maxBodyBytes: configuration.maxBodyBytes,
            maxHeaderBytes: configuration.maxHeaderBytes,
            deadlines: ConnectionDeadlines(
                headerTimeout: configuration.headerTimeout, bodyTimeout: configuration.bodyTimeout,
                connectionLimit: max(1, configuration.connectionLimit)),
            logger: logger)
    }

    /// Starts answering on the listener's socket.
    ///
    /// - Throws: ``HTTPServerError`` when libmicrohttpd cannot start on the socket, or the server was started
    ///   before.
    package func start() throws(HTTPServerError) {
        try state.withLock { (state: inout State) throws(HTTPServerError) in
            guard case .idle = state else { throw HTTPServerError("the server was already started") }
            state = .running(try startDaemon())
            core.deadlines.start()
        }
    }

    /// The port the server listens on (the real one after binding port 0).
    package var port: Int { listener.port }

    /// The server's base URL, e.g. `http://127.0.0.1:8080`.
    package var baseURL: String { listener.baseURL }

    /// The port an already listening socket is bound to (as handed over by systemd), or `nil`.
    package static func port(ofListeningSocket socket: Int32) -> Int? {
        SocketAddress.boundPort(of: socket)
    }

    /// The base URL a server on `host` and `port` has: IPv6 addresses in brackets, the wildcard addresses
    /// shown as `127.0.0.1`.
    package static func baseURL(host: String, port: Int) -> String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let shown = ["0.0.0.0", "[::]"].contains(bracketed) ? "127.0.0.1" : bracketed
        return "http://\(shown):\(port)"
    }

    /// Lets requests in flight finish, answering new ones 503 meanwhile, then stops and closes the socket.
    ///
    /// New requests during the grace period get `503` with `Connection: close` rather than a refused
    /// connection: libmicrohttpd 0.9.75's `MHD_quiesce_daemon`, which would stop accepting, races with its own
    /// epoll worker threads (both remove the listening socket from the epoll set; the loser aborts the
    /// process), so it is used only for a socket systemd passed, which must stay open for the next start.
    ///
    /// - Parameter gracePeriod: How long requests in flight may take; those still waiting after it (a long
    ///   fixed delay, a slow upstream) are answered with 503.
    package func stop(gracePeriod: Duration = .seconds(10)) {
        let daemon: DaemonHandle? = state.withLock { state in
            defer { state = .stopped }
            if case .running(let daemon) = state { return daemon }
            return nil
        }
        guard let daemon else {
            listener.closeIfOwned()
            return
        }
        core.stopAccepting()
        if !listener.ownsSocket { _ = MHD_quiesce_daemon(daemon.pointer) }
        let deadline = ContinuousClock.now + gracePeriod
        while core.requestsInFlight > 0 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        if core.requestsInFlight > 0 {
            core.abandonWaitingRequests()
            let shortDeadline = ContinuousClock.now + .milliseconds(500)
            while core.requestsInFlight > 0 && ContinuousClock.now < shortDeadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }
        MHD_stop_daemon(daemon.pointer)
        core.deadlines.stop()
    }

    /// Connections closed so far because a request's head or body came too slowly
    /// (``HTTPServerConfiguration/headerTimeout``, ``HTTPServerConfiguration/bodyTimeout``).
    package var slowConnectionsClosed: Int { core.deadlines.connectionsClosed }

    /// Connections open now, including those past the connection limit that are being answered 503.
    package var openConnections: Int { core.deadlines.openConnections }

    /// Requests whose head has reached the handler and whose answer is not sent yet, including those waiting
    /// for a stub's delay, the upstream or a slow-request thread.
    package var requestsInFlight: Int { core.requestsInFlight }

    /// ``stop(gracePeriod:)`` for async code: the waiting happens on a thread of its own, so neither the few
    /// threads that run Swift tasks nor Dispatch's workers (about one per core on Linux) are held meanwhile.
    package func shutdown(gracePeriod: Duration = .seconds(10)) async {
        await awaitOnOwnThread { self.stop(gracePeriod: gracePeriod) }
    }

    deinit {
        if case .running(let daemon) = state.withLock({ $0 }) {
            // A socket systemd passed is quiesced, so libmicrohttpd leaves it open; it closes one it was given.
            if !listener.ownsSocket { _ = MHD_quiesce_daemon(daemon.pointer) }
            MHD_stop_daemon(daemon.pointer)
        }
        core.deadlines.stop()
    }

    /// The version of the libmicrohttpd pokestub runs on, e.g. `0.9.75` or `1.0.1` (`MHD_get_version`).
    package static var libraryVersion: String { String(cString: MHD_get_version()) }

    /// Whether the libmicrohttpd pokestub runs on is 1.0 or later, whose strict mode (`MHD_OPTION_STRICT_FOR_CLIENT`
    /// 1, client discipline level 1) answers 400 itself to whitespace in the request target, HTTP/1.1 without
    /// `Host`, a NUL inside a field value and bare LF line ends.
    ///
    /// libmicrohttpd 0.9's strict mode closes the connection without an answer on the first two, so on 0.9
    /// pokestub leaves strict mode off and answers them itself (``RequestFraming``); the last two 0.9 shows
    /// pokestub in no way (it ends a value at NUL and takes LF alone as a line end).
    package static let libraryIsVersion1 = (Int(libraryVersion.prefix { $0 != "." }) ?? 0) >= 1

    /// The most connections libmicrohttpd accepts (`MHD_OPTION_CONNECTION_LIMIT`): the connection limit and
    /// an overflow reserve of a sixteenth of it (at least 8), whose connections are answered 503 at once
    /// (see ``ConnectionDeadlines``). Past both, new connections wait in the listen backlog.
    package static func acceptedConnections(_ configuration: HTTPServerConfiguration) -> Int {
        let limit = max(1, configuration.connectionLimit)
        return limit + max(8, limit / 16)
    }

    /// The memory pool of one connection (`MHD_OPTION_CONNECTION_MEMORY_LIMIT`), in bytes: a quarter more
    /// than ``HTTPServerConfiguration/maxHeaderBytes``, whose limit ``RequestFraming`` checks itself, and
    /// room for the records of ``RequestFraming/maxQueryArguments`` query arguments (64 bytes each).
    /// libmicrohttpd 0.9.75 keeps the request line, the header fields and a record for each query argument
    /// in the pool, and loses a request whose arguments overflow it (see ``RequestFraming/maxQueryArguments``).
    /// It is cleared for every request (`memset`), which a larger pool makes a visible cost of a 404, so it
    /// is no larger than that: 72 KiB with the default 32 KiB header limit.
    static func connectionMemoryBytes(_ configuration: HTTPServerConfiguration) -> Int {
        let header = max(8_192, configuration.maxHeaderBytes)
        return header + header / 4 + 64 * RequestFraming.maxQueryArguments
    }

    private func startDaemon() throws(HTTPServerError) -> DaemonHandle {
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_AUTO.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if listener.host.contains(":") { flags |= MHD_USE_IPv6.rawValue }
        let coreContext = Unmanaged.passUnretained(core).toOpaque()
        errno = 0
        let daemon: OpaquePointer? = {
            var settings = pokestub_mhd_settings()
            settings.flags = flags
            settings.port = UInt16(listener.port)
            settings.bind_address = nil
            settings.listen_fd = listener.descriptor
            settings.thread_pool_size = UInt32(max(1, configuration.threads))
            settings.connection_limit = UInt32(HTTPServer.acceptedConnections(configuration))
            settings.connection_timeout_seconds = UInt32(max(0, configuration.idleTimeoutSeconds))
            settings.connection_memory_limit = HTTPServer.connectionMemoryBytes(configuration)
            settings.strict_for_client = HTTPServer.libraryIsVersion1 ? 1 : 0
            settings.listen_backlog = 1_024
            return pokestub_mhd_start(
                &settings, ServerCore.accessHandler, coreContext, ServerCore.uriLogger, coreContext,
                ServerCore.requestCompleted, coreContext, ServerCore.connectionNotifier, coreContext)
        }()
        guard let daemon else {
            throw HTTPServerError("cannot serve on \(listener.host):\(listener.port)", errno: errno)
        }
        // libmicrohttpd closes the listening socket it serves when it stops.
        listener.handOver()
        return DaemonHandle(pointer: daemon)
    }
}

/// A running `MHD_Daemon`. `@unchecked Sendable`: libmicrohttpd's daemon functions used here (quiesce,
/// stop, info) are documented as callable from any thread; the pointer is only a handle.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
