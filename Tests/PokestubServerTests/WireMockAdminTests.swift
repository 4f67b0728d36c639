import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("WireMock's admin operations: cookies and basic auth in stubs and the journal, settings, mappings/save")
struct WireMockAdminTests {
    private static func createSession(_ server: LiveServer) async throws -> String {
        let (status, session) = try await server.admin("POST", "/sessions", json: "{}")
        #expect(status == 201)
        return try #require(session["id"]?.stringValue)
    }

    @Test("a stub with cookies and basicAuthCredentials answers only those; find, count and remove take them too")
    func credentialsOverSockets() async throws {
        try await LiveServer.with { server in
            let stub = #"""
                {"request": {"method": "GET", "urlPath": "/me", "cookies": {"session": {"equalTo": "abc"}},
                 "basicAuthCredentials": {"username": "ash", "password": "pikachu"}},
                 "response": {"status": 200, "body": "hello ash"}}
                """#
            #expect(try await server.admin("POST", "/mappings", json: stub).0 == 201)
            let basic = "Basic " + Data("ash:pikachu".utf8).base64EncodedString()
            let good = try await server.send(
                "GET", "/me", headers: ["Cookie": "a=1; session=abc", "Authorization": basic])
            #expect(good.status == 200)
            #expect(good.text == "hello ash")
            let wrongCookie = try await server.send(
                "GET", "/me", headers: ["Cookie": "session=abd", "Authorization": basic])
            #expect(wrongCookie.status == 404)
            #expect(
                wrongCookie.text.contains(#"cookie session: expected equalTo "abc", got "abd""#), "\(wrongCookie.text)")
            let noAuth = try await server.send("GET", "/me", headers: ["Cookie": "session=abc"])
            #expect(noAuth.status == 404)
            #expect(noAuth.text.contains("basicAuthCredentials: expected"))

            let byCookie = #"{"urlPath": "/me", "cookies": {"session": {"equalTo": "abc"}}}"#
            let (_, count) = try await server.admin("POST", "/requests/count", json: byCookie)
            #expect(count["count"] == .integer(2))
            let byAuth = #"{"urlPath": "/me", "basicAuthCredentials": {"username": "ash", "password": "pikachu"}}"#
            let (_, found) = try await server.admin("POST", "/requests/find", json: byAuth)
            #expect(found["requests"]?.arrayValue?.count == 2)
            let (bad, reason) = try await server.admin(
                "POST", "/requests/find", json: #"{"basicAuthCredentials": {"username": "ash"}}"#)
            #expect(bad == 400)
            #expect(reason.serializedString().contains("basicAuthCredentials.password"))
            let (_, removed) = try await server.admin("POST", "/requests/remove", json: byCookie)
            #expect(removed["requests"]?.arrayValue?.count == 2)
            let (_, left) = try await server.admin("POST", "/requests/count", json: #"{"urlPath": "/me"}"#)
            #expect(left["count"] == .integer(1))
        }
    }

    @Test("settings: fixedDelay is added to every stub answer of the daemon, not to sessions'; {} removes it")
    func settings() async throws {
        try await LiveServer.with { server in
            #expect(try await server.admin("GET", "/settings").1 == .object(["settings": .object([:])]))
            let stub = #"{"request": {"urlPath": "/d"}, "response": {"body": "d", "fixedDelayMilliseconds": 5}}"#
            #expect(try await server.admin("POST", "/mappings", json: stub).0 == 201)
            let (status, answer) = try await server.admin("POST", "/settings", json: #"{"fixedDelay": 250}"#)
            #expect(status == 200)
            #expect(answer["settings"]?["fixedDelay"] == .integer(250))
            #expect(try await server.admin("GET", "/settings").1["settings"]?["fixedDelay"] == .integer(250))
            // The delay the server is told to wait, read from the engine's answer rather than timed.
            guard case .response(let delayed) = server.engine.handle(HTTPRequest(method: "GET", rawURL: "/d")) else {
                Issue.record("a stub answer is immediate")
                return
            }
            #expect(delayed.delayMilliseconds == 255)
            #expect(try await server.send("GET", "/d").text == "d", "a delayed answer still arrives")
            let id = try await Self.createSession(server)
            guard
                case .response(let inSession) = server.engine.handle(
                    HTTPRequest(method: "GET", rawURL: "/__sessions/\(id)/d"))
            else {
                Issue.record("a stub answer is immediate")
                return
            }
            #expect(inSession.delayMilliseconds == 5, "sessions are not slowed by the daemon's settings")
            #expect(try await server.admin("POST", "/sessions/\(id)/settings", json: #"{"fixedDelay": 1}"#).0 == 403)
            #expect(try await server.admin("GET", "/sessions/\(id)/settings").0 == 403)

            let (refused, reason) = try await server.admin("POST", "/settings", json: #"{"delayDistribution": {}}"#)
            #expect(refused == 400)
            #expect(reason.serializedString().contains("WireMock feature not supported by pokestub"))
            #expect(try await server.admin("POST", "/settings", json: #"{"fixedDelay": -1}"#).0 == 400)
            #expect(try await server.admin("POST", "/settings", json: "[]").0 == 400)
            #expect(try await server.admin("POST", "/settings", json: "{}").1 == .object(["settings": .object([:])]))
            guard case .response(let plain) = server.engine.handle(HTTPRequest(method: "GET", rawURL: "/d")) else {
                Issue.record("a stub answer is immediate")
                return
            }
            #expect(plain.delayMilliseconds == 5)
        }
    }

    @Test("shutdown of an embedded server answers 409; a session's answers 403")
    func embeddedShutdown() async throws {
        try await LiveServer.with { server in
            let (status, reason) = try await server.admin("POST", "/shutdown")
            #expect(status == 409)
            #expect(reason.serializedString().contains("embedded"))
            let id = try await Self.createSession(server)
            #expect(try await server.admin("POST", "/sessions/\(id)/shutdown").0 == 403)
            #expect(try await server.send("GET", "/__admin/health").status == 200, "still serving")
        }
    }

    @Test("mappings/save writes runtime stubs under mappings/ atomically; then they are file stubs, once each")
    func save() async throws {
        let root = try TemporaryDirectory.stubRoot(
            mappings: [
                "kept.json":
                    #"{"id": "11111111-1111-4111-8111-111111111111", "request": {"urlPath": "/kept"}, "response": {"body": "old"}}"#
            ])
        defer { root.removeFolder() }
        try await LiveServer.with(stubRoot: root.path) { server in
            let added = #"""
                {"id": "22222222-2222-4222-8222-222222222222", "name": "Get Me!", "request": {"method": "GET", "urlPath": "/me",
                 "cookies": {"s": {"equalTo": "1"}}}, "response": {"status": 201, "body": "me"}}
                """#
            #expect(try await server.admin("POST", "/mappings", json: added).0 == 201)
            let replaced = #"{"request": {"urlPath": "/kept"}, "response": {"body": "new"}}"#
            #expect(
                try await server.admin("PUT", "/mappings/11111111-1111-4111-8111-111111111111", json: replaced).0 == 200
            )
            let (status, answer) = try await server.admin("POST", "/mappings/save")
            #expect(status == 200, "\(answer)")
            let saved = answer["saved"]?.arrayValue?.compactMap(\.stringValue) ?? []
            let newFile = "mappings/get-me-22222222-2222-4222-8222-222222222222.json"
            #expect(
                saved.sorted() == ["mappings/get-me-22222222-2222-4222-8222-222222222222.json", "mappings/kept.json"])
            #expect(
                root.files.filter { $0.hasPrefix("mappings/") } == [
                    "mappings/get-me-22222222-2222-4222-8222-222222222222.json", "mappings/kept.json",
                ], "no temporary file is left")
            let written = try JSONValue.parse(try root.data(newFile))
            #expect(written["request"]?["cookies"]?["s"]?["equalTo"] == .string("1"))
            #expect(written["persistent"] == .bool(true))
            #expect(try JSONValue.parse(try root.data("mappings/kept.json"))["response"]?["body"] == .string("new"))

            // Served from the files now: a reload (the watcher's) finds the same two stubs, once each.
            #expect(server.engine.store.runtimeStubs.isEmpty)
            #expect(server.engine.store.reload().succeeded)
            #expect(server.engine.store.index.count == 2)
            #expect(try await server.admin("GET", "/mappings").1["meta"]?["total"] == .integer(2))
            #expect(try await server.send("GET", "/me", headers: ["Cookie": "s=1"]).status == 201)
            #expect(try await server.send("GET", "/kept").text == "new")
            #expect(server.engine.store.resetToFiles().succeeded)
            #expect(try await server.send("GET", "/kept").text == "new", "a reset keeps what was saved")

            let id = try await Self.createSession(server)
            #expect(try await server.admin("POST", "/sessions/\(id)/mappings/save").0 == 403)
        }
    }

    @Test("a session's stub may not proxy: sessions answer from stubs only")
    func sessionProxyRefused() async throws {
        try await LiveServer.with { server in
            let id = try await Self.createSession(server)
            let stub = #"{"request": {"urlPath": "/p"}, "response": {"proxyBaseUrl": "http://127.0.0.1:1"}}"#
            let (status, reason) = try await server.admin("POST", "/sessions/\(id)/mappings", json: stub)
            #expect(status == 400)
            #expect(reason.serializedString().contains("proxyBaseUrl"))
        }
    }
}
