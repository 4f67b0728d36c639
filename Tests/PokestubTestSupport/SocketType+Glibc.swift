#if os(Linux)
    import Glibc

    /// Socket type constants as `socket(2)` takes them: Glibc imports them as an enum, `__socket_type`, so
    /// they need `Int32(….rawValue)` here and nowhere else.
    package enum SocketType {
        /// `SOCK_STREAM`: TCP.
        package static let stream = Int32(SOCK_STREAM.rawValue)
        /// `SOCK_DGRAM`: datagrams (a Unix socket standing in for systemd's notify socket).
        package static let datagram = Int32(SOCK_DGRAM.rawValue)
    }
#endif
