import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP connection to `127.0.0.1` that sends bytes exactly as given, for requests no HTTP client would
/// send: malformed request lines, pipelined requests, bodies cut short, clients that stop reading.
///
/// Blocking calls have a deadline: every `recv` gives up after the receive timeout, and with a send
/// timeout every `send` too. ``receive(until:)`` runs the blocking reads on a Dispatch thread, so a test
/// never holds one of the few cooperative threads that run Swift Testing's tests.
///
/// ```swift
/// let connection = try RawConnection(port: server.port)
/// try connection.send("GET / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")
/// let text = await connection.receiveResponses(2)
/// ```
///
/// `Sendable`: the descriptor never changes after `init`; it is closed at deinit.
package final class RawConnection: Sendable {
    private let descriptor: Int32

    /// Connects to `127.0.0.1:port`.
    ///
    /// - Parameters:
    ///   - port: The TCP port, 1 to 65535.
    ///   - timeout: How long one `recv` may wait for bytes before reading stops; 5 s by default.
    ///   - sendTimeout: How long one `send` may wait for the peer to take bytes before it fails, or `nil`
    ///     (the default) for no limit.
    /// - Throws: ``TestFailure`` naming the call and `errno` when the socket cannot be made or the
    ///   connection is refused.
    package init(port: Int, timeout: Duration = .seconds(5), sendTimeout: Duration? = nil) throws {
        descriptor = socket(AF_INET, SocketType.stream, 0)
        guard descriptor >= 0 else { throw TestFailure("socket: errno \(errno)") }
        SocketSending.prepare(descriptor)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let error = errno
            close(descriptor)
            throw TestFailure("connect: errno \(error)")
        }
        Self.setTimeout(timeout, option: SO_RCVTIMEO, on: descriptor)
        if let sendTimeout { Self.setTimeout(sendTimeout, option: SO_SNDTIMEO, on: descriptor) }
    }

    private static func setTimeout(_ timeout: Duration, option: Int32, on descriptor: Int32) {
        let (seconds, attoseconds) = timeout.components
        var interval = timeval(tv_sec: .init(seconds), tv_usec: .init(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, option, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends all of `bytes`, blocking the calling thread until the kernel has taken them.
    ///
    /// - Parameter bytes: The bytes, sent as they are.
    /// - Throws: ``TestFailure`` with `errno` when the peer closed, reset, or the send timeout passed;
    ///   some bytes may have been sent by then.
    package func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes { SocketSending.send(descriptor, $0) }
            guard result > 0 else { throw TestFailure("send: errno \(errno)") }
            sent += result
        }
    }

    /// Sends `text` as UTF-8; see ``send(_:)-([UInt8])``.
    package func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// ``receiveBlocking(until:)`` on a thread of its own (``onOwnThread(_:)-(()->T)``), so the awaiting task
    /// holds no shared thread meanwhile.
    ///
    /// - Parameter enough: Given every byte received so far, whether to stop reading; never by default.
    /// - Returns: Every byte received.
    package func receive(until enough: @escaping @Sendable ([UInt8]) -> Bool = { _ in false }) async -> [UInt8] {
        await onOwnThread { self.receiveBlocking(until: enough) }
    }

    /// Reads until the peer closes, a read times out, or `enough` says the bytes so far are enough; blocks
    /// the calling thread, so call it from a thread of its own (or use ``receive(until:)``).
    ///
    /// - Parameter enough: Given every byte received so far, whether to stop reading; never by default.
    /// - Returns: Every byte received.
    package func receiveBlocking(until enough: ([UInt8]) -> Bool = { _ in false }) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !enough(received) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return received
    }

    /// Reads until `count` responses' status lines and the last response's body (by its `Content-Length`)
    /// have arrived, or the connection ends or a read times out.
    ///
    /// - Parameter count: How many responses to wait for.
    /// - Returns: What was received, decoded as UTF-8.
    package func receiveResponses(_ count: Int) async -> String {
        String(
            decoding: await receive { RawConnection.statusLines(in: $0) >= count && RawConnection.complete($0) },
            as: UTF8.self)
    }

    /// Half-closes the sending side (`shutdown(SHUT_WR)`): the peer reads end of file, and can still answer.
    package func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    /// How many HTTP/1.x status lines `bytes` holds (counted as occurrences of `HTTP/1.`).
    package static func statusLines(in bytes: [UInt8]) -> Int {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.").count - 1
    }

    /// Whether the last response in `bytes` has fully arrived: its head is complete and, when it has a
    /// `Content-Length`, that many body bytes follow it.
    package static func complete(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        guard let headerEnd = text.range(of: "\r\n\r\n", options: .backwards) else { return false }
        let headers = text[..<headerEnd.lowerBound]
        guard
            let lengthLine = headers.split(separator: "\r\n").last(where: {
                $0.lowercased().hasPrefix("content-length:")
            }),
            let length = Int(lengthLine.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
        else { return true }
        return text.utf8.distance(from: headerEnd.upperBound.samePosition(in: text.utf8)!, to: text.utf8.endIndex)
            >= length
    }

    deinit { close(descriptor) }
}
