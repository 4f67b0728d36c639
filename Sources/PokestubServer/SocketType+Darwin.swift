#if canImport(Darwin)
    import Darwin

    /// Socket type constants as `socket(2)` takes them: Darwin imports them as `Int32` macros
    /// (`<sys/socket.h>`; Apple's socket(2) manual page).
    enum SocketType {
        /// `SOCK_STREAM`: TCP.
        static let stream = SOCK_STREAM
    }
#endif
