#if canImport(Darwin)
    import Darwin

    /// Socket type constants as `socket(2)` takes them: Darwin imports them as `Int32` macros
    /// (`<sys/socket.h>`; Apple's socket(2) manual page,
    /// <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/socket.2.html>).
    /// Written against that page and never compiled here (no Mac was available).
    package enum SocketType {
        /// `SOCK_STREAM`: TCP.
        package static let stream = SOCK_STREAM
        /// `SOCK_DGRAM`: datagrams.
        package static let datagram = SOCK_DGRAM
    }
#endif
