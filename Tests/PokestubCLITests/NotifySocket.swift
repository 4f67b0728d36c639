import Foundation
import PokestubTestSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A datagram socket standing in for systemd's notify socket: it collects what the daemon sends.
final class NotifySocket: Sendable {
    let path: String
    private let descriptor: Int32

    init() throws {
        path =
            FileManager.default.temporaryDirectory.appendingPathComponent(
                "pokestub-notify-\(UUID().uuidString.prefix(8))"
            ).path
        descriptor = socket(AF_UNIX, SocketType.datagram, 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw TestFailure("bind \(path): errno \(errno)") }
        var interval = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Waits (on a thread of its own) for a message containing `text`, returning every message read meanwhile.
    func messages(until text: String, timeout: Duration = .seconds(20)) async -> [String] {
        await onOwnThread {
            var received: [String] = []
            let deadline = ContinuousClock.now + timeout
            var buffer = [UInt8](repeating: 0, count: 4_096)
            while ContinuousClock.now < deadline {
                let count = recv(self.descriptor, &buffer, buffer.count, 0)
                if count > 0 {
                    received.append(String(decoding: buffer[0..<count], as: UTF8.self))
                    if received.last!.contains(text) { break }
                }
            }
            return received
        }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }
}
