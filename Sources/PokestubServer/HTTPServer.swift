import CMicroHTTPD
import Dispatch
import Foundation
import PokestubCore
import Synchronization

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
/// let server = HTTPServer(configuration: .init(port: 0), handler: engine)
/// try server.start()
/// print(server.port)   // the port the system picked
/// server.stop()
/// ```
public final class HTTPServer: Sendable {
    /// How the server listens.
    public let configuration: HTTPServerConfiguration
    private let core: ServerCore
    private let state = Mutex(State.idle)

    private enum State {
        case idle
        case running(DaemonHandle, port: Int)
        case stopped
    }

    /// Creates a server; nothing listens until ``start()``.
    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler, logger: Logger = .disabled) {
        self.configuration = configuration
        core = ServerCore(
            handler: handler, maxBodyBytes: configuration.maxBodyBytes,
            deadlines: ConnectionDeadlines(
                headerTimeout: configuration.headerTimeout, bodyTimeout: configuration.bodyTimeout),
            logger: logger)
    }

    /// Binds and starts answering.
    ///
    /// - Throws: ``HTTPServerError`` when the address is not an IP literal or `localhost`, the port is taken or
    ///   not permitted, or the server was started before.
    public func start() throws(HTTPServerError) {
        try state.withLock { (state: inout State) throws(HTTPServerError) in
            guard case .idle = state else { throw HTTPServerError("the server was already started") }
            let (daemon, port) = try startDaemon()
            state = .running(daemon, port: port)
            core.deadlines.start()
        }
    }

    /// The port the server listens on (the real one after binding port 0), or 0 when not running.
    public var port: Int {
        state.withLock { state in
            if case .running(_, let port) = state { return port }
            return 0
        }
    }

    /// The server's base URL, e.g. `http://127.0.0.1:8080`.
    public var baseURL: String {
        HTTPServer.baseURL(host: configuration.host, port: port)
    }

    /// The port an already listening socket is bound to (as handed over by systemd), or `nil`.
    public static func port(ofListeningSocket socket: Int32) -> Int? {
        SocketAddress.boundPort(of: socket)
    }

    /// The base URL a server on `host` and `port` has: IPv6 addresses in brackets, the wildcard addresses
    /// shown as `127.0.0.1`.
    public static func baseURL(host: String, port: Int) -> String {
        let bracketed = host.contains(":") ? "[\(host)]" : host
        let shown = ["0.0.0.0", "[::]"].contains(bracketed) ? "127.0.0.1" : bracketed
        return "http://\(shown):\(port)"
    }

    /// Stops accepting connections, lets requests in flight finish, then stops.
    ///
    /// - Parameter gracePeriod: How long requests in flight may take; those still waiting after it (a long
    ///   fixed delay, a slow upstream) are answered with 503.
    public func stop(gracePeriod: Duration = .seconds(10)) {
        let daemon: DaemonHandle? = state.withLock { state in
            defer { state = .stopped }
            if case .running(let daemon, _) = state { return daemon }
            return nil
        }
        guard let daemon else { return }
        let listener = MHD_quiesce_daemon(daemon.pointer)
        if listener >= 0 && configuration.listenSocket == nil { close(listener) }
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
        core.releaseUnfinishedContexts()
    }

    /// Connections closed so far because a request's head or body came too slowly
    /// (``HTTPServerConfiguration/headerTimeout``, ``HTTPServerConfiguration/bodyTimeout``).
    public var slowConnectionsClosed: Int { core.deadlines.connectionsClosed }

    /// ``stop(gracePeriod:)`` for async code: the waiting happens on a thread of its own, so neither the few
    /// threads that run Swift tasks nor Dispatch's workers (about one per core on Linux) are held meanwhile.
    public func shutdown(gracePeriod: Duration = .seconds(10)) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread {
                self.stop(gracePeriod: gracePeriod)
                continuation.resume()
            }.start()
        }
    }

    deinit {
        if case .running(let daemon, _) = state.withLock({ $0 }) {
            MHD_stop_daemon(daemon.pointer)
            core.releaseUnfinishedContexts()
        }
        core.deadlines.stop()
    }

    private func startDaemon() throws(HTTPServerError) -> (DaemonHandle, Int) {
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_AUTO.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        var address = try SocketAddress(host: configuration.host, port: configuration.port)
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        guard (0...65_535).contains(configuration.port) else {
            throw HTTPServerError("port \(configuration.port) is outside 0...65535")
        }
        let coreContext = Unmanaged.passUnretained(core).toOpaque()
        errno = 0
        let daemon: OpaquePointer? = address.withSockaddr { sockaddr in
            var settings = pokestub_mhd_settings()
            settings.flags = flags
            settings.port = UInt16(configuration.port)
            settings.bind_address = configuration.listenSocket == nil ? sockaddr : nil
            settings.listen_fd = configuration.listenSocket ?? -1
            settings.thread_pool_size = UInt32(max(1, configuration.threads))
            settings.connection_limit = UInt32(max(1, configuration.connectionLimit))
            settings.connection_timeout_seconds = UInt32(max(0, configuration.idleTimeoutSeconds))
            settings.connection_memory_limit = max(8_192, configuration.maxHeaderBytes)
            settings.listen_backlog = 1_024
            return pokestub_mhd_start(
                &settings, ServerCore.accessHandler, coreContext, ServerCore.uriLogger, coreContext,
                ServerCore.requestCompleted, coreContext, ServerCore.connectionNotifier, coreContext)
        }
        guard let daemon else {
            let where_ =
                configuration.listenSocket.map { "socket \($0)" } ?? "\(configuration.host):\(configuration.port)"
            throw HTTPServerError("cannot listen on \(where_)", errno: errno)
        }
        var port = Int(pokestub_mhd_bound_port(daemon))
        if let socket = configuration.listenSocket {
            // libmicrohttpd reports the configured port for a socket it was handed; ask the socket.
            port = SocketAddress.boundPort(of: socket) ?? port
        }
        return (DaemonHandle(pointer: daemon), port)
    }
}

/// A running `MHD_Daemon`. `@unchecked Sendable`: libmicrohttpd's daemon functions used here (quiesce,
/// stop, info) are documented as callable from any thread; the pointer is only a handle.
struct DaemonHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
