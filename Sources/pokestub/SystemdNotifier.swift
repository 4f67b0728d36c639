import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Speaks systemd's notify protocol (sd_notify(3)) itself: datagrams such as `READY=1` to the socket named
/// by `NOTIFY_SOCKET`. Does nothing when the variable is unset, so the same binary runs anywhere.
struct SystemdNotifier {
    private let address: String?

    /// Reads `NOTIFY_SOCKET` from the environment: a path, or `@name` for the abstract namespace.
    init(environment: [String: String]) {
        let value = environment["NOTIFY_SOCKET"] ?? ""
        address = value.isEmpty ? nil : value
    }

    /// Whether a service manager listens.
    var isActive: Bool { address != nil }

    /// Tells systemd the daemon is listening (`READY=1`) and what it serves (`STATUS=`).
    func ready(status: String) { send("READY=1\nSTATUS=\(status)\nMAINPID=\(getpid())") }

    /// Tells systemd a reload started (`RELOADING=1` with the monotonic time systemd 253+ wants).
    func reloading() { send("RELOADING=1\nMONOTONIC_USEC=\(Self.monotonicMicroseconds())") }

    /// Tells systemd the daemon is stopping.
    func stopping() { send("STOPPING=1") }

    /// Updates the status line `systemctl status` shows.
    func status(_ text: String) { send("STATUS=\(text)") }

    /// Sends one datagram; failures are ignored, as sd_notify(3) does: the daemon works without systemd.
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
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
        let bytes = Array(message.utf8)
        _ = withUnsafePointer(to: &unixAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                sendto(socketDescriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
            }
        }
    }

    private static func monotonicMicroseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
    }
}

/// Socket activation (sd_listen_fds(3)): the listening socket systemd passed, when `LISTEN_PID` is this
/// process and `LISTEN_FDS` is at least 1. The first passed socket is descriptor 3.
enum SocketActivation {
    /// The passed listening socket, or `nil`.
    static func listeningSocket(environment: [String: String]) -> Int32? {
        guard let pid = environment["LISTEN_PID"].flatMap({ Int32($0) }), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap({ Int($0) }), count >= 1
        else { return nil }
        let descriptor: Int32 = 3
        var type: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_TYPE, &type, &length) == 0, type == Int32(SOCK_STREAM.rawValue)
        else { return nil }
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        return descriptor
    }
}
