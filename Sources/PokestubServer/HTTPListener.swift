import PokestubLocking

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A listening TCP socket for an ``HTTPServer``: bound here (an IP literal and a port, 0 picking a free
/// one), or handed over already listening by the service manager (systemd's `LISTEN_FDS`).
///
/// Its port, and so the server's base URL, is known as soon as it exists: whatever needs the address (the
/// links a server rewrites, the URLs of sessions) is built with it before the first request can arrive.
///
/// ```swift
/// let listener = try HTTPListener(host: "127.0.0.1", port: 0)
/// let engine = StubEngine(store: store, journalCapacity: 1_000, baseURL: listener.baseURL)
/// let server = HTTPServer(listener: listener, handler: engine)
/// try server.start()
/// ```
package final class HTTPListener: Sendable {
    /// The socket's file descriptor.
    package let descriptor: Int32
    /// The address it was asked to listen on, as given (`127.0.0.1`, `::`, `localhost`).
    package let host: String
    /// The TCP port it is bound to.
    package let port: Int
    /// Whether this listener made the socket, and so closes it when the server stops; a socket handed over
    /// by the service manager stays open for the next start.
    let ownsSocket: Bool
    /// Whether this listener no longer closes the socket: it closed it, or libmicrohttpd serves it now.
    private let released = Locked(false)

    /// Binds and listens on `host:port` (backlog 1,024; `SO_REUSEADDR`; close-on-exec; an IPv6 address
    /// listens on IPv6 only).
    ///
    /// - Parameters:
    ///   - host: An IP literal or `localhost`; names are not resolved.
    ///   - port: The TCP port; 0 lets the system pick a free one.
    /// - Throws: ``HTTPServerError`` when the host is not an IP literal, the port is out of range, or the
    ///   socket cannot be bound (the port is taken or not permitted), with `errno`.
    package init(host: String, port: Int) throws(HTTPServerError) {
        guard (0...65_535).contains(port) else { throw HTTPServerError("port \(port) is outside 0...65535") }
        var address = try SocketAddress(host: host, port: port)
        let descriptor = socket(address.isIPv6 ? AF_INET6 : AF_INET, SocketType.stream, 0)
        guard descriptor >= 0 else { throw HTTPServerError("cannot make a socket for \(host):\(port)", errno: errno) }
        var one: Int32 = 1
        let size = socklen_t(MemoryLayout<Int32>.size)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, size)
        if address.isIPv6 { _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &one, size) }
        let length = socklen_t(address.isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        let bound = address.withSockaddr { bind(descriptor, $0, length) }
        guard bound == 0, listen(descriptor, 1_024) == 0 else {
            let failure = errno
            close(descriptor)
            throw HTTPServerError("cannot listen on \(host):\(port)", errno: failure)
        }
        self.descriptor = descriptor
        self.host = host
        self.port = SocketAddress.boundPort(of: descriptor) ?? port
        ownsSocket = true
    }

    /// Serves on a socket that is already bound and listening (systemd socket activation).
    ///
    /// - Parameters:
    ///   - descriptor: The listening socket.
    ///   - host: The configured host, for the base URL.
    /// - Throws: ``HTTPServerError`` when the descriptor is not a bound socket.
    package init(activatedSocket descriptor: Int32, host: String) throws(HTTPServerError) {
        guard let port = SocketAddress.boundPort(of: descriptor) else {
            throw HTTPServerError("file descriptor \(descriptor) is not a bound socket", errno: errno)
        }
        self.descriptor = descriptor
        self.host = host
        self.port = port
        ownsSocket = false
    }

    /// The base URL clients reach it at, e.g. `http://127.0.0.1:8080`: IPv6 addresses in brackets, the
    /// wildcard addresses shown as `127.0.0.1`.
    package var baseURL: String { HTTPServer.baseURL(host: host, port: port) }

    /// Closes the socket if this listener made it and still holds it; once, however often it is called.
    func closeIfOwned() {
        let wasReleased = released.withLock { released in
            defer { released = true }
            return released
        }
        guard ownsSocket, !wasReleased else { return }
        close(descriptor)
    }

    /// Leaves the socket to the libmicrohttpd daemon serving it, which closes it when it stops.
    func handOver() {
        released.withLock { $0 = true }
    }

    deinit {
        closeIfOwned()
    }
}
