import Foundation
import PokestubCore
import PokestubServer
import PokestubTestSupport
import Testing

/// A server whose connection slots are all held (a flood of idle connections) still answers new clients at
/// once, with 503, instead of leaving them in the listen backlog until a header deadline frees a slot.
@Suite("Connection floods over raw sockets")
struct ConnectionFloodTests {
    private static func status(_ response: String) -> Int? {
        guard response.hasPrefix("HTTP/1.") else { return nil }
        return Int(response.split(separator: " ").dropFirst().first ?? "")
    }

    private static func get(_ port: Int) async throws -> (status: Int?, response: String, took: Duration) {
        let started = ContinuousClock.now
        let connection = try RawConnection(port: port, timeout: .seconds(15))
        try connection.send("GET /ok HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
        let response = String(decoding: await connection.receive(), as: UTF8.self)
        return (status(response), response, ContinuousClock.now - started)
    }

    @Test("with every slot held by idle connections, a new client gets 503 at once, and 200 once slots free up")
    func floodGetsPrompt503() async throws {
        let engine = StubEngine(store: StubStore(root: nil), journalCapacity: 100)
        let json = try JSONValue.parse(#"{"request":{"urlPath":"/ok"},"response":{"status":200,"body":"ok"}}"#)
        engine.store.add(
            try StubMapping(json: json, defaultID: UUID(), source: .runtime, bodyFiles: BodyFileStore(root: nil)))
        // A header deadline far longer than the waits below: a slot freed by it would come too late.
        let server = HTTPServer(
            listener: try HTTPListener(host: "127.0.0.1", port: 0),
            configuration: HTTPServerConfiguration(connectionLimit: 8, headerTimeout: .seconds(30)), handler: engine)
        try server.start()
        defer { server.stop(gracePeriod: .milliseconds(500)) }

        var idle: [RawConnection] = []
        for _ in 0..<8 { idle.append(try RawConnection(port: server.port)) }
        try await eventually("the 8 idle connections are open") { server.openConnections == 8 }

        let full = try await Self.get(server.port)
        #expect(full.status == 503, "\(full.response.prefix(200))")
        #expect(full.response.lowercased().contains("connection: close"))
        #expect(full.took < .seconds(5))
        #expect(engine.journal.count == 0)

        // The reserve fills with idle connections too; it is swept within a second or so, so the next client
        // still gets its 503 long before the 30-second header deadline.
        var reserve: [RawConnection] = []
        for _ in 0..<8 { reserve.append(try RawConnection(port: server.port)) }
        let probe = try await Self.get(server.port)
        #expect(probe.status == 503, "\(probe.response.prefix(200))")
        #expect(probe.took < .seconds(10), "the probe waited \(probe.took)")

        idle.removeAll()
        reserve.removeAll()
        try await eventually("the idle connections are closed") { server.openConnections == 0 }
        #expect(try await Self.get(server.port).status == 200)
    }
}
