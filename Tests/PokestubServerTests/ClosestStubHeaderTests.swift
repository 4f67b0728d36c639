import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("Pokestub-Closest-Stub on unmatched answers, over real sockets")
struct ClosestStubHeaderTests {
    /// Adds a stub through `admin` (a path under `/__admin`) and returns its id.
    private static func addStub(_ server: LiveServer, _ mapping: String, admin: String = "") async throws -> String {
        let (status, stub) = try await server.admin("POST", admin + "/mappings", json: mapping)
        #expect(status == 201)
        return try #require(stub["id"]?.stringValue)
    }

    /// The raw head of the answer to `GET target`, read from the socket as sent.
    private static func rawHead(_ server: LiveServer, _ target: String) async throws -> String {
        let port = try #require(URL(string: server.baseURL)?.port)
        let connection = try RawConnection(port: port)
        try connection.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let bytes = await connection.receive()
        let text = String(decoding: bytes, as: UTF8.self)
        return String(text[..<(text.range(of: "\r\n\r\n")?.lowerBound ?? text.endIndex)])
    }

    @Test("a miss names the closest stub and its first differing field; a hit and an empty stub set do not")
    func daemonScope() async throws {
        try await LiveServer.with { server in
            let none = try await server.send("GET", "/api/v2/pokemon/1/")
            #expect(none.status == 404)
            #expect(none.header("Pokestub-Closest-Stub") == "none")
            let id = try await Self.addStub(
                server, #"{"request": {"method": "GET", "urlPath": "/api/v2/pokemon/9/"}, "response": {"status": 200}}"#
            )
            let miss = try await server.send("GET", "/api/v2/pokemon/9999/")
            #expect(miss.status == 404)
            #expect(miss.header("Pokestub-Closest-Stub") == "\(id) urlPath")
            #expect(miss.text.contains("urlPath: expected \"/api/v2/pokemon/9/\""))
            let byMethod = try await server.send("POST", "/api/v2/pokemon/9/")
            #expect(byMethod.header("Pokestub-Closest-Stub") == "\(id) method")
            // The near-miss cache answers a repeated miss; the header comes with it.
            #expect(
                try await server.send("GET", "/api/v2/pokemon/9999/").header("Pokestub-Closest-Stub") == "\(id) urlPath"
            )
            let hit = try await server.send("GET", "/api/v2/pokemon/9/")
            #expect(hit.status == 200)
            #expect(hit.header("Pokestub-Closest-Stub") == nil)
        }
    }

    @Test("a query parameter difference is named with the parameter")
    func queryParameter() async throws {
        try await LiveServer.with { server in
            let id = try await Self.addStub(
                server,
                #"{"request": {"method": "GET", "urlPath": "/api/v2/pokemon/", "queryParameters": {"limit": {"equalTo": "20"}}}, "response": {"status": 200}}"#
            )
            let miss = try await server.send("GET", "/api/v2/pokemon/?limit=21")
            #expect(miss.header("Pokestub-Closest-Stub") == "\(id) query parameter limit")
        }
    }

    @Test("in a session the session's own stubs and the daemon's are compared")
    func sessionScope() async throws {
        try await LiveServer.with { server in
            let (status, session) = try await server.admin("POST", "/sessions", json: "{}")
            #expect(status == 201)
            let sessionID = try #require(session["id"]?.stringValue)
            let id = try await Self.addStub(
                server, #"{"request": {"method": "GET", "urlPath": "/only-in-session"}, "response": {"status": 200}}"#,
                admin: "/sessions/\(sessionID)")
            let miss = try await server.send("GET", "/__sessions/\(sessionID)/only-in-sessio")
            #expect(miss.status == 404)
            #expect(miss.header("Pokestub-Closest-Stub") == "\(id) urlPath")
            // The daemon's scope does not see the session's stub.
            #expect(try await server.send("GET", "/only-in-sessio").header("Pokestub-Closest-Stub") == "none")
        }
    }

    @Test("a field name with CR, LF, non-ASCII and a great length stays one bounded ASCII header line")
    func hostileFieldName() async throws {
        try await LiveServer.with { server in
            let name = "X-\u{e9}\\r\\nSet-Cookie: evil=1 %" + String(repeating: "a", count: 400)
            let mapping = """
                {"request": {"method": "GET", "urlPath": "/hostile", "headers": {"\(name)": {"equalTo": "1"}}},
                 "response": {"status": 200}}
                """
            let id = try await Self.addStub(server, mapping)
            let head = try await Self.rawHead(server, "/hostile")
            #expect(head.hasPrefix("HTTP/1.1 404"))
            #expect(!head.lowercased().contains("\r\nset-cookie"))
            let line = try #require(
                head.components(separatedBy: "\r\n").first { $0.hasPrefix("Pokestub-Closest-Stub: ") })
            let value = String(line.dropFirst("Pokestub-Closest-Stub: ".count))
            #expect(value.hasPrefix("\(id) header X-%C3%A9%0D%0ASet-Cookie: evil=1 %25aaa"))
            #expect(value.hasSuffix("..."))
            #expect(value.utf8.count <= 36 + 1 + NearMissAnswer.maxFieldBytes)
            #expect(value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F })
        }
    }
}
