#if os(Linux)
    import Foundation
    import Glibc

    /// Linux: systemd's notify socket. References: sd_notify(3) and systemd.exec(5) (`NOTIFY_SOCKET`), unix(7)
    /// (the abstract namespace), socket(2) and send(2) (`SOCK_CLOEXEC`, `MSG_NOSIGNAL`).
    extension SystemdNotifier {
        /// Reads `NOTIFY_SOCKET` from the environment: a path, or `@name` for the abstract namespace.
        ///
        /// - Parameter environment: The process environment.
        init(environment: [String: String]) {
            let value = environment["NOTIFY_SOCKET"] ?? ""
            self.init(address: value.isEmpty ? nil : value)
        }

        /// Sends one datagram; failures are ignored, as sd_notify(3) does: the daemon works without systemd.
        ///
        /// - Parameter message: Newline-separated `KEY=value` assignments.
        func send(_ message: String) {
            guard let address else { return }
            let socketDescriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard socketDescriptor >= 0 else { return }
            defer { close(socketDescriptor) }
            var unixAddress = sockaddr_un()
            unixAddress.sun_family = sa_family_t(AF_UNIX)
            var pathBytes = Array(address.utf8)
            if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }  // abstract namespace
            let capacity = MemoryLayout.size(ofValue: unixAddress.sun_path)
            guard pathBytes.count < capacity else { return }
            withUnsafeMutableBytes(of: &unixAddress.sun_path) { raw in
                raw.copyBytes(from: pathBytes)
            }
            let length = socklen_t(
                MemoryLayout<sa_family_t>.size + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
            let bytes = Array(message.utf8)
            _ = withUnsafePointer(to: &unixAddress) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    sendto(socketDescriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
    }
#endif
