import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP socket listening on `127.0.0.1` with a port the system picked, open until the instance is released:
/// a socket to hand to the daemon as systemd's socket activation would, or, through ``unusedPort()``, a port
/// nothing listens on.
///
/// `Sendable`: the descriptor and port never change after `init`.
package final class ListeningSocket: Sendable {
    /// The socket's file descriptor.
    package let descriptor: Int32
    /// The port it listens on, 1 to 65535.
    package let port: Int

    /// Binds `127.0.0.1:0`, listens (backlog 64) unless told not to, and reads the port back.
    ///
    /// - Parameter listening: `false` binds without listening: connecting is refused at once, and the port
    ///   stays taken (no other test's server can get it) for as long as the instance lives.
    /// - Throws: ``TestFailure`` with `errno` when the socket cannot be made, bound or put to listen.
    package init(listening: Bool = true) throws {
        let descriptor = socket(AF_INET, SocketType.stream, 0)
        guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(descriptor, pointer, length) == 0, !listening || listen(descriptor, 64) == 0 else {
                    return -1
                }
                return getsockname(descriptor, pointer, &length)
            }
        }
        guard bound == 0 else {
            let error = errno
            close(descriptor)
            throw TestFailure("listen: errno \(error)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// A port on `127.0.0.1` that refuses connections for as long as the returned socket lives: bound, not
    /// listening. (A port picked and closed again could be taken by another test's server meanwhile.)
    ///
    /// - Returns: The socket holding the port; read ``port``.
    /// - Throws: As ``init(listening:)``.
    package static func refusingPort() throws -> ListeningSocket {
        try ListeningSocket(listening: false)
    }

    deinit { close(descriptor) }
}
