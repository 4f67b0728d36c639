import Dispatch
import Foundation
import PokestubCore
import PokestubServer

#if canImport(Glibc)
    import Glibc
#endif

/// A pokestub engine and server on 127.0.0.1 with a port the system picked, for sending it what no
/// well-behaved client would. Requests go over raw sockets, so bodies may be any bytes of any size.
final class HostileServer: Sendable {
    let engine: StubEngine
    let server: HTTPServer

    /// Starts a server.
    ///
    /// - Parameters:
    ///   - stubRoot: A stub folder to load, or `nil` for runtime stubs only.
    ///   - maxBodyBytes: The largest body accepted (the daemon's default is 16 MB).
    init(stubRoot: String? = nil, maxBodyBytes: Int = 16 << 20) throws {
        let store = StubStore(root: stubRoot)
        store.reload()
        engine = StubEngine(store: store, journalCapacity: 1_000)
        server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, maxBodyBytes: maxBodyBytes),
            handler: engine)
        try server.start()
        engine.info.baseURL = server.baseURL
    }

    /// Runs `body` with a started server and always stops it.
    static func with<T>(
        stubRoot: String? = nil, maxBodyBytes: Int = 16 << 20, _ body: (HostileServer) async throws -> T
    ) async throws -> T {
        let server = try HostileServer(stubRoot: stubRoot, maxBodyBytes: maxBodyBytes)
        defer { server.server.stop(gracePeriod: .milliseconds(500)) }
        return try await body(server)
    }

    /// Sends one request with `Connection: close` and reads the whole answer.
    func send(
        _ method: String, _ target: String, body: [UInt8] = [], timeout: Duration = .seconds(30)
    ) async throws
        -> RawResponse
    {
        let port = server.port
        return try await withCheckedThrowingContinuation { continuation in
            // Blocking socket calls run on a Dispatch thread, never on a cooperative one.
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try RawResponse.exchange(
                            port: port, method: method, target: target, body: body, timeout: timeout)
                    })
            }
        }
    }

    /// Sends an admin request with a JSON (or not quite JSON) body.
    func admin(_ method: String, _ path: String, _ body: String = "") async throws -> RawResponse {
        try await send(method, "/__admin" + path, body: Array(body.utf8))
    }
}

/// A response read off a raw socket.
struct RawResponse: Sendable {
    /// The status code, or 0 when the connection closed without a status line.
    var status: Int
    /// The body bytes.
    var body: [UInt8]
    /// How long from the first byte sent to the connection closing.
    var elapsed: Duration

    var text: String { String(decoding: body, as: UTF8.self) }

    /// The body as JSON, or `nil`.
    var json: JSONValue? { try? JSONValue.parse(Data(body)) }

    /// The first error title of a WireMock-style refusal, `{"errors": [{"title": …}]}`.
    var errorTitle: String? {
        guard case .array(let errors)? = json?["errors"], case .string(let title)? = errors.first?["title"] else {
            return nil
        }
        return title
    }

    static func exchange(
        port: Int, method: String, target: String, body: [UInt8], timeout: Duration
    ) throws
        -> RawResponse
    {
        let head =
            "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
            + "Content-Type: application/json\r\nConnection: close\r\n\r\n"
        return try exchangeRaw(port: port, bytes: Array(head.utf8) + body, timeout: timeout)
    }

    /// Connects, sends `bytes` as they are, and reads until the server closes or `timeout` passes.
    static func exchangeRaw(port: Int, bytes: [UInt8], timeout: Duration = .seconds(5)) throws -> RawResponse {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw RawSocketError("socket: errno \(errno)") }
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw RawSocketError("connect: errno \(errno)") }
        let (seconds, attoseconds) = timeout.components
        var interval = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socketDescriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
        let started = ContinuousClock.now
        // A server may answer (413) and close before taking the whole body: a failed send is not an error.
        _ = sendAll(socketDescriptor, bytes)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(socketDescriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return RawResponse(parsing: received, elapsed: ContinuousClock.now - started)
    }

    private static func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if result <= 0 { return false }
            sent += result
        }
        return true
    }

    init(parsing bytes: [UInt8], elapsed: Duration) {
        self.elapsed = elapsed
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, bytes.count - 3)).first(where: { bytes[$0..<($0 + 4)].elementsEqual(separator) })
        else {
            status = 0
            body = []
            return
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let statusLine = head.split(separator: "\r\n").first ?? ""
        status =
            statusLine.hasPrefix("HTTP/1.") ? Int(statusLine.split(separator: " ").dropFirst().first ?? "") ?? 0 : 0
        body = Array(bytes[(end + 4)...])
    }
}

struct RawSocketError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
