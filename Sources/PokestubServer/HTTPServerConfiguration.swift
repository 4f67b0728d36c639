import Foundation

/// How many threads an ``HTTPServer`` runs and what it tolerates from clients (where it listens is its
/// ``HTTPListener``).
package struct HTTPServerConfiguration: Sendable, Equatable {
    /// Worker threads answering requests; default one per core.
    package var threads: Int
    /// The most connections open at once.
    package var connectionLimit: Int
    /// Seconds a connection may stay idle before it is closed (slow or vanished clients).
    package var idleTimeoutSeconds: Int
    /// Time a client has for a request line and its header fields, however steadily it sends (slowloris);
    /// a new connection's clock starts when it is accepted. See ``ConnectionDeadlines``.
    package var headerTimeout: Duration
    /// Time a client has for a request body once its header fields are in.
    package var bodyTimeout: Duration
    /// The largest request body accepted, in bytes; larger ones get 413.
    package var maxBodyBytes: Int
    /// Memory for one connection's request line and headers, in bytes; larger headers get 431
    /// (libmicrohttpd's `MHD_OPTION_CONNECTION_MEMORY_LIMIT`).
    package var maxHeaderBytes: Int

    /// Creates a configuration with defaults for everything not given.
    package init(
        threads: Int? = nil, connectionLimit: Int = 1_024, idleTimeoutSeconds: Int = 60, maxBodyBytes: Int = 16 << 20,
        maxHeaderBytes: Int = 32 << 10, headerTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(60)
    ) {
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
