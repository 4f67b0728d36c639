import Foundation

#if canImport(Glibc)
    import Glibc
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
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { throw ProcessFailure(message: "bind \(path): errno \(errno)") }
        var interval = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Waits (on a Dispatch thread) for a message containing `text`, returning every message read meanwhile.
    func messages(until text: String, timeout: Duration = .seconds(20)) async -> [String] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
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
                continuation.resume(returning: received)
            }
        }
    }

    deinit {
        close(descriptor)
        unlink(path)
    }
}

/// A listening TCP socket on 127.0.0.1 with a free port, to hand to the daemon as systemd would.
final class ListeningSocket: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Int32 in
                guard bind(descriptor, pointer, length) == 0, listen(descriptor, 64) == 0 else { return -1 }
                return getsockname(descriptor, pointer, &length)
            }
        }
        guard bound == 0 else { throw ProcessFailure(message: "listen: errno \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
