#if canImport(Darwin)
    import Darwin

    /// Sending on a socket whose peer may have gone without the process receiving `SIGPIPE`, which would end
    /// the test run: Darwin has no `MSG_NOSIGNAL`; the socket is marked once with the `SO_NOSIGPIPE` option
    /// instead, and `send` then fails with `EPIPE`.
    ///
    /// Written against Apple's setsockopt(2) (`SO_NOSIGPIPE`) and send(2) manual pages
    /// (<https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/setsockopt.2.html>,
    /// <https://developer.apple.com/library/archive/documentation/System/Conceptual/ManPages_iPhoneOS/man2/send.2.html>)
    /// and never compiled here (no Mac was available).
    package enum SocketSending {
        /// Sets `SO_NOSIGPIPE` on a new socket.
        ///
        /// - Parameter descriptor: The socket.
        package static func prepare(_ descriptor: Int32) {
            var one: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        }

        /// send(2); ``prepare(_:)`` made a closed peer give `EPIPE`, not `SIGPIPE`.
        ///
        /// - Parameters:
        ///   - descriptor: The connected socket.
        ///   - bytes: What to send.
        /// - Returns: How many bytes the kernel took, or -1 with `errno` set.
        package static func send(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
            Darwin.send(descriptor, bytes.baseAddress, bytes.count, 0)
        }
    }
#endif
