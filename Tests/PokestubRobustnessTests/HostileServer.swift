import Dispatch
import Foundation
import PokestubCore
import PokestubServer
import PokestubTestSupport

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
    ///   - maxMemoryBytes: The engine's memory budget (the daemon's default is 1 GiB).
    ///   - templateLimits: The work a request's templates may do.
    init(
        stubRoot: String? = nil, maxBodyBytes: Int = 16 << 20, maxMemoryBytes: Int = 1 << 30,
        templateLimits: TemplateLimits = TemplateLimits()
    ) throws {
        let store = StubStore(root: stubRoot)
        store.reload()
        let listener = try HTTPListener(host: "127.0.0.1", port: 0)
        engine = StubEngine(
            store: store, journalCapacity: 1_000, maxMemoryBytes: maxMemoryBytes, templateLimits: templateLimits,
            baseURL: listener.baseURL)
        server = HTTPServer(
            listener: listener, configuration: HTTPServerConfiguration(maxBodyBytes: maxBodyBytes), handler: engine)
        try server.start()
    }

    /// Runs `body` with a started server and always stops it.
    static func with<T>(
        stubRoot: String? = nil, maxBodyBytes: Int = 16 << 20, maxMemoryBytes: Int = 1 << 30,
        templateLimits: TemplateLimits = TemplateLimits(), _ body: (HostileServer) async throws -> T
    ) async throws -> T {
        let server = try HostileServer(
            stubRoot: stubRoot, maxBodyBytes: maxBodyBytes, maxMemoryBytes: maxMemoryBytes,
            templateLimits: templateLimits)
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
        // Blocking socket calls run on a thread of their own, never on a cooperative or Dispatch one.
        return try await onOwnThread {
            try RawResponse.exchange(port: port, method: method, target: target, body: body, timeout: timeout)
        }
    }

    /// Sends an admin request with a JSON (or not quite JSON) body.
    func admin(_ method: String, _ path: String, _ body: String = "") async throws -> RawResponse {
        try await send(method, "/__admin" + path, body: Array(body.utf8))
    }
}
