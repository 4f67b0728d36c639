#if os(Linux)
    import Glibc

    /// Socket type constants as `socket(2)` takes them: Glibc imports them as an enum, `__socket_type`.
    enum SocketType {
        /// `SOCK_STREAM`: TCP.
        static let stream = Int32(SOCK_STREAM.rawValue)
    }
#endif
