import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection to 127.0.0.1 that sends bytes exactly as given, for requests no HTTP client would send.
/// `Sendable`: the descriptor never changes; reads run on a Dispatch thread so blocking `recv` never
/// holds one of the few cooperative threads that run the tests.
final class RawConnection: Sendable {
    private let descriptor: Int32

    /// Connects, with `timeout` for every read.
    init(port: Int, timeout: Duration = .seconds(5)) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw RawConnectionError("socket: errno \(errno)") }
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
            close(descriptor)
            throw RawConnectionError("connect: errno \(errno)")
        }
        let (seconds, attoseconds) = timeout.components
        var interval = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard result > 0 else { throw RawConnectionError("send: errno \(errno)") }
            sent += result
        }
    }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// ``receiveBlocking(until:)`` on a Dispatch thread.
    func receive(until enough: @escaping @Sendable ([UInt8]) -> Bool = { _ in false }) async -> [UInt8] {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.receiveBlocking(until: enough)) }
        }
    }

    /// Reads until the peer closes, the read times out, or `until` says the bytes so far are enough.
    func receiveBlocking(until enough: ([UInt8]) -> Bool = { _ in false }) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !enough(received) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return received
    }

    /// Reads until `count` responses' status lines have arrived (or the connection ends).
    func receiveResponses(_ count: Int) async -> String {
        String(
            decoding: await receive { RawConnection.statusLines(in: $0) >= count && RawConnection.complete($0) },
            as: UTF8.self)
    }

    /// Half-closes the sending side.
    func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    static func statusLines(in bytes: [UInt8]) -> Int {
        String(decoding: bytes, as: UTF8.self).components(separatedBy: "HTTP/1.").count - 1
    }

    /// Whether the last response's body has fully arrived, judged by its Content-Length.
    static func complete(_ bytes: [UInt8]) -> Bool {
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

struct RawConnectionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
