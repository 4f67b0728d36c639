import Dispatch
import Foundation
import PokestubCore
import PokestubServer
import PokestubTestSupport
import Testing

/// Requests libmicrohttpd refuses while it is still reading their headers. It reports the request target
/// to pokestub first and then never says the request is over, so the per-request state pokestub made for it
/// was leaked (LeakSanitizer found one holding a 20 KB URL) and counted as in flight for good: every graceful
/// stop afterwards waited its whole grace period for a request that no longer existed.
@Suite("Requests refused while their headers are read")
struct RefusedRequestTests {
    /// Requests libmicrohttpd gives up on before calling the access handler.
    static let refused: [String] = [
        // More query arguments than the connection's memory pool holds.
        "GET /a?\(String(repeating: "q=1&", count: 5_000)) HTTP/1.1\r\nHost: a\r\n\r\n",
        // A header field without a colon.
        "GET /x HTTP/1.1\r\nHost a\r\n\r\n",
        // Headers beyond the memory limit.
        "GET /x HTTP/1.1\r\nHost: a\r\nX-Big: \(String(repeating: "b", count: 100_000))\r\n\r\n",
    ]

    @Test("stop does not wait for requests that libmicrohttpd refused")
    func stopIsPrompt() async throws {
        let engine = StubEngine(store: StubStore(root: nil), journalCapacity: 10)
        let server = HTTPServer(
            listener: try HTTPListener(host: "127.0.0.1", port: 0),
            configuration: HTTPServerConfiguration(idleTimeoutSeconds: 2), handler: engine)
        try server.start()
        for raw in Self.refused {
            let response = try await server.sendRaw(raw)
            #expect(response.status == 0 || (400...499).contains(response.status), "\(raw.prefix(30).debugDescription)")
        }
        // One ordinary request, answered and completed.
        #expect(try await server.sendRaw("GET /ok HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").status == 404)
        // With nothing in flight, a stop ends at once. Before the fix it took the whole grace period, then half a
        // second more for requests still "in flight": a grace period of a minute tells the two apart on any load.
        let started = ContinuousClock.now
        await onOwnThread { server.stop(gracePeriod: .seconds(60)) }
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(30), "stop took \(elapsed) of its 60 s grace period")
    }
}

extension HTTPServer {
    /// Sends raw bytes on a new connection and reads what comes back until it closes (at most 5 s).
    func sendRaw(_ raw: String) async throws -> RawResponse {
        let port = port
        return try await onOwnThread { try RawResponse.exchangeRaw(port: port, bytes: Array(raw.utf8)) }
    }
}
