import Foundation
import PokestubCore
import PokestubServer
import PokestubTestSupport
import Testing

/// What a hostile or broken client sends: each case gets a 4xx or a closed connection, and the server
/// keeps answering everyone else.
@Suite("Malformed HTTP over raw sockets")
struct MalformedHTTPTests {
    private static func withServer(_ body: (LiveServer, Int) async throws -> Void) async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            try await body(server, server.server.port)
            // Whatever came before, the server still answers a well-formed request.
            #expect(try await server.send("GET", "/api/v2/pokemon/1/").status == 200)
        }
    }

    private static func status(_ response: String) -> Int? {
        guard response.hasPrefix("HTTP/1.") else { return nil }
        return Int(response.split(separator: " ").dropFirst().first ?? "")
    }

    @Test(
        "bad request lines get 400 or a closed connection",
        arguments: [
            "GARBAGE\r\n\r\n", "GET\r\n\r\n", "GET /x HTTP/9.9\r\nHost: a\r\n\r\n", "GET /x HTTP/1.1\r\n\r\n",
            " / HTTP/1.1\r\nHost: a\r\n\r\n", "GET /x HTTP/1.1\r\nHost a\r\n\r\n", "\r\n\r\n\r\n",
            "GET /x HTTP/1.1\r\nHost: a\r\nContent-Length: -5\r\n\r\n",
            "GET /x HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "GET /x HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n\r\n",
        ])
    func badRequestLines(_ raw: String) async throws {
        try await Self.withServer { _, port in
            let connection = try RawConnection(port: port, timeout: .seconds(1))
            try connection.send(raw)
            connection.finishSending()
            let response = String(decoding: await connection.receive(), as: UTF8.self)
            if let status = Self.status(response) {
                #expect((400...499).contains(status) || status == 505, "\(raw.debugDescription) got \(status)")
            }
        }
    }

    @Test(
        "odd bytes in the path never crash matching and are journaled as received",
        arguments: [
            "/api/v2/pokemon/%C3%28/", "/api/v2/pokemon/\u{e9}/", "/a?%=%&&=&x=%ZZ",
            "/a?" + String(repeating: "q=1&", count: 300), "/a?x=%00",
        ])
    func oddPaths(_ path: String) async throws {
        try await Self.withServer { server, port in
            let connection = try RawConnection(port: port)
            try connection.send("GET \(path) HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            let response = String(decoding: await connection.receive(), as: UTF8.self)
            #expect(Self.status(response) == 404, "\(path.debugDescription): \(response.prefix(80))")
            #expect(server.engine.journal.events.last?.request.rawURL == path)
        }
    }

    /// RFC 3986 §2.1 and RFC 9112 §3: refused by pokestub itself, with the same answer on libmicrohttpd 0.9, which
    /// passes such a path on, and 1.0, which would otherwise refuse it with its own HTML.
    @Test(
        "a path with a broken percent-encoding or %00 gets 400 naming it, and is not matched",
        arguments: ["/api/v2/pokemon/%zz/", "/api/v2/pokemon/%4", "/%", "/api/%00/x", "/api/v2/pokemon/1/%0"])
    func brokenPercentEncoding(_ path: String) async throws {
        try await Self.withServer { server, port in
            let connection = try RawConnection(port: port)
            try connection.send("GET \(path) HTTP/1.1\r\nHost: a\r\n\r\n")
            let response = String(decoding: await connection.receive(), as: UTF8.self)
            #expect(Self.status(response) == 400, "\(path.debugDescription): \(response.prefix(80))")
            #expect(response.contains("request target path"), "\(response.prefix(300))")
            #expect(response.lowercased().contains("connection: close"))
            #expect(!server.engine.journal.events.contains { $0.request.rawURL == path })
        }
    }

    @Test("raw non-UTF-8 bytes and a raw NUL in the path are answered, not crashed on")
    func rawBytes() async throws {
        try await Self.withServer { _, port in
            for bytes: [UInt8] in [[0xFF, 0xFE], [0x00], [0xC3]] {
                let connection = try RawConnection(port: port)
                try connection.send(
                    Array("GET /x".utf8) + bytes + Array(" HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".utf8))
                let response = String(decoding: await connection.receive(), as: UTF8.self)
                if let status = Self.status(response) { #expect((400...499).contains(status)) }
            }
        }
    }

    @Test("thousands of query parameters stall only their own connection, never the server")
    func hugeQuery() async throws {
        // libmicrohttpd 0.9.75 keeps each query argument in the connection's memory pool; past what the pool
        // holds it answers nothing and closes the connection when it times out. Others are served meanwhile.
        try await Self.withServer { server, port in
            let connection = try RawConnection(port: port, timeout: .milliseconds(500))
            try connection.send("GET /a?\(String(repeating: "q=1&", count: 5_000)) HTTP/1.1\r\nHost: a\r\n\r\n")
            let response = String(decoding: await connection.receive(), as: UTF8.self)
            if let status = Self.status(response) { #expect((400...499).contains(status)) }
            #expect(try await server.send("GET", "/api/v2/type/1/").status == 200)
        }
    }

    @Test("headers larger than the limit get 431 or a closed connection")
    func oversizedHeaders() async throws {
        try await Self.withServer { _, port in
            let connection = try RawConnection(port: port)
            try? connection.send(
                "GET /x HTTP/1.1\r\nHost: a\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n")
            let response = String(decoding: await connection.receive(), as: UTF8.self)
            if let status = Self.status(response) { #expect(status == 431 || status == 413 || status == 400) }
        }
    }

    @Test("a body larger than the limit gets 413")
    func oversizedBody() async throws {
        let engine = StubEngine(store: StubStore(root: nil), journalCapacity: 10)
        let server = HTTPServer(
            listener: try HTTPListener(host: "127.0.0.1", port: 0),
            configuration: HTTPServerConfiguration(maxBodyBytes: 1_024), handler: engine)
        try server.start()
        let connection = try RawConnection(port: server.port)
        let body = String(repeating: "x", count: 4_096)
        try connection.send("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 4096\r\nConnection: close\r\n\r\n\(body)")
        let response = String(decoding: await connection.receive(), as: UTF8.self)
        #expect(Self.status(response) == 413)
        #expect(engine.journal.count == 0)
        await server.shutdown(gracePeriod: .milliseconds(500))
    }

    @Test("Expect: 100-continue gets 100 Continue, then the answer")
    func expectContinue() async throws {
        try await Self.withServer { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
            let interim = String(
                decoding: await connection.receive { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") },
                as: UTF8.self)
            #expect(interim.hasPrefix("HTTP/1.1 100 Continue"))
            try connection.send("{}")
            let final = await connection.receiveResponses(1)
            #expect(final.contains("HTTP/1.1 404"))
        }
    }

    @Test("HTTP/1.0 is answered and the connection closed")
    func http10() async throws {
        try await Self.withServer { _, port in
            let connection = try RawConnection(port: port)
            try connection.send("GET /api/v2/pokemon/1/ HTTP/1.0\r\n\r\n")
            let response = String(decoding: await connection.receive(), as: UTF8.self)
            #expect(response.hasPrefix("HTTP/1.0 200") || response.hasPrefix("HTTP/1.1 200"))
            #expect(response.contains("\"name\":\"bulbasaur\""))
        }
    }

    @Test("pipelined requests are answered in order on one connection")
    func pipelining() async throws {
        try await Self.withServer { _, port in
            let connection = try RawConnection(port: port)
            try connection.send(
                "GET /api/v2/type/1/ HTTP/1.1\r\nHost: a\r\n\r\nGET /nope HTTP/1.1\r\nHost: a\r\n\r\n"
                    + "GET /api/v2/berry/1/ HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            let responses = String(decoding: await connection.receive(), as: UTF8.self)
            let statuses = responses.components(separatedBy: "HTTP/1.1 ").dropFirst().map { $0.prefix(3) }
            #expect(statuses == ["200", "404", "200"])
        }
    }

    @Test("a body shorter than its Content-Length, then a vanished client, leaves the server serving")
    func truncatedBody() async throws {
        try await Self.withServer { server, port in
            do {
                let connection = try RawConnection(port: port, timeout: .milliseconds(300))
                try connection.send("POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nonly-ten!!")
                connection.finishSending()
                _ = await connection.receive()
            }
            #expect(server.engine.journal.events.allSatisfy { $0.request.rawURL != "/x" })
        }
    }

    @Test("clients that stop reading a large body do not starve others")
    func stalledReaders() async throws {
        try await Self.withServer { server, port in
            var stalled: [RawConnection] = []
            for _ in 0..<8 {
                let connection = try RawConnection(port: port)
                try connection.send("GET /api/v2/pokemon/122/ HTTP/1.1\r\nHost: a\r\n\r\n")
                stalled.append(connection)  // never read
            }
            for id in 1...20 {
                #expect(try await server.send("GET", "/api/v2/pokemon/\(id)/").status == 200)
            }
            stalled.removeAll()
        }
    }
}
