import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

/// WireMock's `response.statusMessage`: accepted and kept with the stub (listing, serve events, saved files),
/// while the status line carries the standard reason phrase (libmicrohttpd has no call to set another).
@Suite("statusMessage is kept with the stub and the status is served with its standard reason phrase")
struct StatusMessageTests {
    private static let stub = #"""
        {"id": "5a7e0000-0000-4000-8000-000000000001", "request": {"method": "GET", "urlPath": "/fine"},
         "response": {"status": 201, "statusMessage": "Everything is fine", "body": "made"}}
        """#

    @Test("served over a socket as 201 Created; listed, journaled and saved with its statusMessage")
    func keptAndServed() async throws {
        let root = try TemporaryDirectory.stubRoot()
        defer { root.removeFolder() }
        try await LiveServer.with(stubRoot: root.path) { server in
            let (created, answer) = try await server.admin("POST", "/mappings", json: Self.stub)
            #expect(created == 201, "\(answer)")
            #expect(answer["response"]?["statusMessage"] == .string("Everything is fine"))

            let connection = try RawConnection(port: server.server.port)
            try connection.send("GET /fine HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            let raw = String(decoding: await connection.receive(), as: UTF8.self)
            #expect(raw.hasPrefix("HTTP/1.1 201 Created\r\n"), "\(raw)")
            #expect(raw.hasSuffix("\r\n\r\nmade"), "\(raw)")

            let (_, listing) = try await server.admin("GET", "/mappings")
            let listed = listing["mappings"]?.arrayValue?.first
            #expect(listed?["response"]?["statusMessage"] == .string("Everything is fine"))
            let (_, one) = try await server.admin("GET", "/mappings/5a7e0000-0000-4000-8000-000000000001")
            #expect(one["response"]?["statusMessage"] == .string("Everything is fine"))

            let (_, journal) = try await server.admin("GET", "/requests")
            let event = journal["requests"]?.arrayValue?.first
            #expect(event?["responseDefinition"]?["statusMessage"] == .string("Everything is fine"))
            #expect(event?["responseDefinition"]?["status"] == .integer(201))
            #expect(event?["response"]?["status"] == .integer(201))

            let (saved, files) = try await server.admin("POST", "/mappings/save")
            #expect(saved == 200, "\(files)")
            let file = try #require(files["saved"]?.arrayValue?.first?.stringValue)
            #expect(try JSONValue.parse(root.data(file))["response"]?["statusMessage"] == .string("Everything is fine"))
            let (_, reloaded) = try await server.admin("GET", "/mappings/5a7e0000-0000-4000-8000-000000000001")
            #expect(reloaded["response"]?["statusMessage"] == .string("Everything is fine"), "read back from the file")
            #expect(try await server.send("GET", "/fine").status == 201)
        }
    }

    @Test("a statusMessage that is not a string is a 400 naming the field")
    func notAString() async throws {
        try await LiveServer.with { server in
            let stub = #"{"request": {"urlPath": "/x"}, "response": {"status": 200, "statusMessage": 42}}"#
            let (status, reason) = try await server.admin("POST", "/mappings", json: stub)
            #expect(status == 400)
            let text = reason.serializedString()
            #expect(text.contains("response.statusMessage") && text.contains("must be a string, not number"), "\(text)")
        }
    }
}
