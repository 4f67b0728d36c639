import Dispatch
import Foundation
import PokestubCore
import PokestubLocking
import PokestubServer
import PokestubTestSupport
import Testing

/// Clients that send a request a byte at a time (slowloris). libmicrohttpd's idle timeout starts again with
/// every byte, so without deadlines of its own the server kept such connections, and their connection slots,
/// for as long as the client kept trickling. The idle timeout here is 30 s, so it is never what closes them.
@Suite("Slow clients are bounded by deadlines")
struct SlowClientTests {
    private static func withServer(
        connectionLimit: Int = 1_024, _ body: (HTTPServer) async throws -> Void
    ) async throws {
        let engine = StubEngine(store: StubStore(root: nil), journalCapacity: 100)
        let server = HTTPServer(
            listener: try HTTPListener(host: "127.0.0.1", port: 0),
            configuration: HTTPServerConfiguration(
                threads: 2, connectionLimit: connectionLimit, idleTimeoutSeconds: 30, headerTimeout: .seconds(1),
                bodyTimeout: .seconds(1)),
            handler: engine)
        try server.start()
        do {
            try await body(server)
        } catch {
            await server.shutdown(gracePeriod: .milliseconds(200))
            throw error
        }
        await server.shutdown(gracePeriod: .milliseconds(200))
    }

    /// Sends one byte every 100 ms until sending fails (the server closed the connection) or `budget` bytes
    /// are sent; returns how many were sent. Runs on a thread of its own.
    private static func trickle(on connection: RawConnection, budget: Int) async -> Int {
        await onOwnThread {
            var sent = 0
            while sent < budget, (try? connection.send([UInt8(ascii: "x")])) != nil {
                sent += 1
                Thread.sleep(forTimeInterval: 0.1)
            }
            return sent
        }
    }

    @Test(
        "a request line, header fields or body trickled a byte at a time is cut off at its timeout",
        arguments: [
            // A request line on a new connection: the header timeout runs from accept.
            "GET /",
            // Header fields after a request line: the header timeout.
            "GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ",
            // A body after complete header fields: the body timeout.
            "POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 500\r\n\r\n",
        ])
    func trickled(start: String) async throws {
        try await Self.withServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send(start)
            let sent = await Self.trickle(on: connection, budget: 100)
            // About 10 bytes fit in the 1 s timeout; 100 would take 10 s.
            #expect(sent < 50, "the connection took \(sent) bytes 100 ms apart")
            #expect(server.slowConnectionsClosed == 1)
        }
    }

    @Test("a kept-alive connection idle for longer than the header timeout still gets its next answer")
    func idleKeepAliveIsNotCutOff() async throws {
        try await Self.withServer { server in
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await connection.receiveResponses(1).hasPrefix("HTTP/1.1 200"))
            try await Task.sleep(for: .milliseconds(1_600))
            try connection.send("GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(await connection.receiveResponses(1).hasPrefix("HTTP/1.1 200"))
            #expect(server.slowConnectionsClosed == 0)
        }
    }

    @Test("slow clients holding every connection slot free them at the header timeout")
    func slowlorisCannotStarveOthers() async throws {
        let limit = 16
        try await Self.withServer(connectionLimit: limit) { server in
            var attackers: [RawConnection] = []
            for _ in 0..<limit {
                let connection = try RawConnection(port: server.port)
                try connection.send("GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                attackers.append(connection)
            }
            // The attack: every connection sends a header byte every 100 ms for up to 15 s, until the server
            // closes it.
            let rounds = Locked(0)
            let attack = Task.detached { [attackers] in
                await onOwnThread {
                    var open = attackers
                    while !open.isEmpty, rounds.withLock({ $0 }) < 150 {
                        open = open.filter {
                            (try? $0.send("X-Slow-\(rounds.withLock { $0 }): 1\r\n")) != nil
                        }
                        rounds.withLock { $0 += 1 }
                        Thread.sleep(forTimeInterval: 0.1)
                    }
                }
            }
            // A well-behaved client, retrying while the slots are taken.
            var answered = false
            var roundsWhenAnswered = 0
            for _ in 0..<60 where !answered {
                if let connection = try? RawConnection(port: server.port, timeout: .seconds(2)),
                    (try? connection.send(
                        "GET /__admin/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"))
                        != nil,
                    await connection.receive().starts(with: Array("HTTP/1.1 200".utf8))
                {
                    answered = true
                    roundsWhenAnswered = rounds.withLock { $0 }
                } else {
                    try await Task.sleep(for: .milliseconds(200))
                }
            }
            await attack.value
            #expect(answered)
            // Answered while the attack was still going, not after the attackers gave up by themselves.
            #expect(roundsWhenAnswered < 150, "answered only after \(roundsWhenAnswered) rounds of the attack")
            #expect(server.slowConnectionsClosed >= limit)
        }
    }
}
