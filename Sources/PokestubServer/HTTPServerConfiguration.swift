import Foundation

/// How an ``HTTPServer`` listens and what it tolerates from clients.
public struct HTTPServerConfiguration: Sendable, Equatable {
    /// The IP address to listen on: `127.0.0.1` (the default), `0.0.0.0`, `::1`, `::`, or `localhost`.
    public var host: String
    /// The TCP port; 0 lets the system pick a free one (read it back from ``HTTPServer/port``).
    public var port: Int
    /// An already listening socket to serve on instead of binding (systemd socket activation, `LISTEN_FDS`).
    public var listenSocket: Int32?
    /// Worker threads answering requests; default one per core.
    public var threads: Int
    /// The most connections open at once.
    public var connectionLimit: Int
    /// Seconds a connection may stay idle before it is closed (slow or vanished clients).
    public var idleTimeoutSeconds: Int
    /// Time a client has for a request line and its header fields, however steadily it sends (slowloris);
    /// a new connection's clock starts when it is accepted. See ``ConnectionDeadlines``.
    public var headerTimeout: Duration
    /// Time a client has for a request body once its header fields are in.
    public var bodyTimeout: Duration
    /// The largest request body accepted, in bytes; larger ones get 413.
    public var maxBodyBytes: Int
    /// Memory for one connection's request line and headers, in bytes; larger headers get 431
    /// (libmicrohttpd's `MHD_OPTION_CONNECTION_MEMORY_LIMIT`).
    public var maxHeaderBytes: Int

    /// Creates a configuration with defaults for everything not given.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, listenSocket: Int32? = nil, threads: Int? = nil,
        connectionLimit: Int = 1_024, idleTimeoutSeconds: Int = 60, maxBodyBytes: Int = 16 << 20,
        maxHeaderBytes: Int = 32 << 10, headerTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(60)
    ) {
        self.host = host
        self.port = port
        self.listenSocket = listenSocket
        self.threads = threads ?? max(1, System.coreCount)
        self.connectionLimit = connectionLimit
        self.idleTimeoutSeconds = idleTimeoutSeconds
        self.maxBodyBytes = maxBodyBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
    }
}

enum System {
    static var coreCount: Int { ProcessInfo.processInfo.activeProcessorCount }
}
