#if os(Linux)
    import Glibc

    /// Linux: systemd's socket activation. References: sd_listen_fds(3) (`LISTEN_PID`, `LISTEN_FDS`, the first
    /// passed descriptor is 3), getsockopt(2) (`SO_TYPE`), fcntl(2) (`FD_CLOEXEC`).
    extension SocketActivation {
        /// The listening socket systemd passed, when `LISTEN_PID` is this process and `LISTEN_FDS` is at least
        /// 1: descriptor 3, if it is a stream socket (made close-on-exec); otherwise `nil`.
        ///
        /// - Parameter environment: The process environment.
        /// - Returns: The descriptor, or `nil`.
        static func listeningSocket(environment: [String: String]) -> Int32? {
            guard let pid = environment["LISTEN_PID"].flatMap({ Int32($0) }), pid == getpid(),
                let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), count >= 1
            else { return nil }
            let descriptor: Int32 = 3
            var type: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0,
                type == Int32(SOCK_STREAM.rawValue)
            else { return nil }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            return descriptor
        }
    }
#endif
