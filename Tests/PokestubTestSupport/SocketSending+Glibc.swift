#if os(Linux)
    import Glibc

    /// Sending on a socket whose peer may have gone without the process receiving `SIGPIPE`, which would end
    /// the test run: on Linux each `send` says so with `MSG_NOSIGNAL` (send(2)).
    package enum SocketSending {
        /// Readies a new socket for ``send(_:_:)``: nothing to do on Linux.
        ///
        /// - Parameter descriptor: The socket.
        package static func prepare(_ descriptor: Int32) {}

        /// send(2) with `MSG_NOSIGNAL`: a closed peer gives `EPIPE`, not `SIGPIPE`.
        ///
        /// - Parameters:
        ///   - descriptor: The connected socket.
        ///   - bytes: What to send.
        /// - Returns: How many bytes the kernel took, or -1 with `errno` set.
        package static func send(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
            Glibc.send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
        }
    }
#endif
