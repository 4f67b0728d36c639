import Foundation
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

/// Closure routes as a client sees them over a socket on 127.0.0.1: parameters, thrown errors, bodies and
/// defaults.
@Suite("StubRoute serving")
struct StubRouteServingTests {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String { "the team service is down" }
    }

    @Test("a :name segment's value reaches the handler as request.parameters")
    func parameters() async throws {
        let route = StubRoute("GET /api/v2/:resource/:id") { request in
            .json([
                "resource": .string(request.parameters["resource"] ?? "-"),
                "id": .string(request.parameters["id"] ?? "-"),
            ])
        }
        try await withStubServer(routes: [route]) { server in
            let answer = try await HTTPFetch.send(server.url("/api/v2/pokemon/25/"))
            #expect(answer.status == 200)
            #expect(try JSONValue(parsing: answer.body) == ["resource": "pokemon", "id": "25"])
            let tooLong = try await HTTPFetch.send(server.url("/api/v2/pokemon/25/encounters"))
            #expect(tooLong.status == 404, "no route takes three segments after /api/v2, and no stub either")
        }
    }

    @Test("a handler that throws answers 500 with the error's description, and the request is journaled")
    func thrownError() async throws {
        try await withStubServer { server in
            server.appendRoute("POST /api/v2/team") { _ in throw Unavailable() }
            let answer = try await HTTPFetch.send(server.url("/api/v2/team"), method: "POST", body: Data("ash".utf8))
            #expect(answer.status == 500)
            #expect(answer.text == "the team service is down")
            #expect(answer.headers["content-type"] == "text/plain; charset=utf-8")

            let entry = try #require(try await server.admin.requests().first)
            #expect(entry.responseStatus == 500)
            #expect(entry.stubName == "route POST /api/v2/team")
            try await server.admin.verify(count: 1, .post("/api/v2/team").withRequestBody(.equalTo("ash")))
        }
    }

    @Test("an async handler may await and throw; what it returns is sent")
    func asyncHandler() async throws {
        let gate = AsyncGate()
        try await withStubServer { server in
            server.appendRoute("GET /slow") { _ in
                try await gate.wait()
                return .text("late")
            }
            async let answer = HTTPFetch.send(server.url("/slow"))
            try await eventually("the handler waits") { gate.isWaiting }
            gate.open()
            #expect(try await answer.text == "late")
        }
    }

    @Test("factories default to 200 and take Data, String and file bodies")
    func bodies() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.removeFolder() }
        let file = folder.url.appendingPathComponent("25.json")
        try Data(#"{"name": "pikachu"}"#.utf8).write(to: file)
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let routes = [
            StubRoute("/text") { _ in .text("ok") },
            StubRoute("/string") { _ in RouteResponse(body: "plain") },
            StubRoute("/data") { _ in .data(bytes, contentType: "image/png") },
            StubRoute("/file") { _ in try .file(file) },
            StubRoute("/missing-file") { _ in try .file(folder.url.appendingPathComponent("none.json")) },
            StubRoute("/created") { _ in RouteResponse(status: 201) },
        ]
        try await withStubServer(routes: routes) { server in
            let text = try await HTTPFetch.send(server.url("/text"))
            #expect(text.status == 200)
            #expect(text.text == "ok")
            let string = try await HTTPFetch.send(server.url("/string"))
            #expect(string.status == 200)
            #expect(string.text == "plain")
            let data = try await HTTPFetch.send(server.url("/data"))
            #expect(data.body == bytes)
            #expect(data.headers["content-type"] == "image/png")
            let fromFile = try await HTTPFetch.send(server.url("/file"))
            #expect(fromFile.text == #"{"name": "pikachu"}"#)
            #expect(fromFile.headers["content-type"] == "application/json")
            let missing = try await HTTPFetch.send(server.url("/missing-file"))
            #expect(missing.status == 500)
            #expect(missing.text.contains("none.json"), "\(missing.text)")
            #expect(try await HTTPFetch.send(server.url("/created")).status == 201)
        }
    }

    @Test("a response's delay holds the answer back at least that long")
    func delay() async throws {
        let route = StubRoute("/late") { _ in RouteResponse(body: "late", delay: .milliseconds(300)) }
        try await withStubServer(routes: [route]) { server in
            let clock = ContinuousClock()
            let started = clock.now
            let answer = try await HTTPFetch.send(server.url("/late"))
            #expect(answer.text == "late")
            #expect(clock.now - started >= .milliseconds(300))
        }
    }
}
