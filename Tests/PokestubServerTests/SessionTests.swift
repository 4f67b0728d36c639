import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("Sessions: one shared daemon, many jobs")
struct SessionTests {
    private static func createSession(_ server: LiveServer, _ body: String = "{}") async throws -> (String, String) {
        let (status, session) = try await server.admin("POST", "/sessions", json: body)
        #expect(status == 201)
        let id = try #require(session["id"]?.stringValue)
        let base = try #require(session["baseUrl"]?.stringValue)
        return (id, base)
    }

    @Test("fifty sessions with different stubs for the same path never see each other's stubs or journal")
    func fiftySessionsNoCrossTalk() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            let results = try await withThrowingTaskGroup(of: Bool.self) { group in
                for job in 0..<50 {
                    group.addTask {
                        let (id, base) = try await Self.createSession(server, #"{"name": "job-\#(job)"}"#)
                        let mapping =
                            #"{"request": {"method": "GET", "urlPath": "/api/v2/pokemon/1/"}, "response": {"status": 200, "body": "job \#(job)"}}"#
                        let (created, _) = try await server.admin("POST", "/sessions/\(id)/mappings", json: mapping)
                        var ok = created == 201
                        let path = String(base.dropFirst(server.baseURL.count))
                        for _ in 0..<5 {
                            let answer = try await server.send("GET", path + "/api/v2/pokemon/1/")
                            ok = ok && answer.text == "job \(job)"
                        }
                        // Stubs from disk still answer inside the session.
                        let diskStatus = try await server.send("GET", path + "/api/v2/type/1/").status
                        ok = ok && diskStatus == 200
                        let (_, journal) = try await server.admin("GET", "/sessions/\(id)/requests")
                        ok = ok && journal["meta"]?["total"] == .integer(6)
                        let count = try await server.admin(
                            "POST", "/sessions/\(id)/requests/count", json: #"{"urlPath": "/api/v2/pokemon/1/"}"#)
                        ok = ok && count.1["count"] == .integer(5)
                        let (_, mappings) = try await server.admin("GET", "/sessions/\(id)/mappings")
                        ok = ok && mappings["meta"]?["total"] == .integer(1)
                        return ok
                    }
                }
                var all: [Bool] = []
                for try await result in group { all.append(result) }
                return all
            }
            #expect(results.count == 50)
            #expect(results.allSatisfy { $0 })
            // Nothing leaked into the daemon's own journal or stubs.
            #expect(server.engine.journal.count == 0)
            #expect(try await server.send("GET", "/api/v2/pokemon/1/").text.contains("\"name\":\"bulbasaur\""))
            let (_, list) = try await server.admin("GET", "/sessions")
            #expect(list["meta"]?["total"] == .integer(50))
        }
    }

    @Test("an ended session answers 404 and frees its id; an unknown one too")
    func endingSessions() async throws {
        try await LiveServer.with { server in
            let (id, base) = try await Self.createSession(server)
            let path = String(base.dropFirst(server.baseURL.count))
            #expect(try await server.admin("DELETE", "/sessions/\(id)").0 == 200)
            #expect(try await server.send("GET", path + "/x").status == 404)
            #expect(try await server.admin("GET", "/sessions/\(id)").0 == 404)
            #expect(try await server.admin("GET", "/sessions/\(id)/requests").0 == 404)
            #expect(try await server.send("GET", "/__sessions/nope/x").status == 404)
        }
    }

    @Test("limits answer 429 with a JSON reason")
    func limits() async throws {
        let store = StubStore(root: nil)
        let engine = StubEngine(
            store: store, journalCapacity: 10,
            sessionLimits: SessionLimits(maxSessions: 2, maxStubsPerSession: 1, journalCapacity: 3))
        let session = try engine.sessions.create(name: nil, idleTimeoutSeconds: nil)
        _ = try engine.sessions.create(name: nil, idleTimeoutSeconds: nil)
        guard case .response(let full) = engine.handle(HTTPRequest(method: "POST", rawURL: "/__admin/sessions")) else {
            Issue.record("expected a response")
            return
        }
        #expect(full.status == 429)
        #expect(full.body.text.contains("Too many sessions"))
        let mapping = Data(#"{"request": {"url": "/a"}, "response": {}}"#.utf8)
        let first = engine.handle(
            HTTPRequest(method: "POST", rawURL: "/__admin/sessions/\(session.id)/mappings", body: mapping))
        let second = engine.handle(
            HTTPRequest(method: "POST", rawURL: "/__admin/sessions/\(session.id)/mappings", body: mapping))
        if case .response(let created) = first, case .response(let refused) = second {
            #expect(created.status == 201)
            #expect(refused.status == 429)
        } else {
            Issue.record("expected responses")
        }
    }

    @Test("an idle session expires after its timeout")
    func idleExpiry() throws {
        let engine = StubEngine(store: StubStore(root: nil), journalCapacity: 10)
        let start = Date()
        let session = try engine.sessions.create(name: "short", idleTimeoutSeconds: 5, now: start)
        #expect(engine.sessions.session(id: session.id, now: start.addingTimeInterval(4)) != nil)
        #expect(engine.sessions.session(id: session.id, now: start.addingTimeInterval(8)) != nil)
        #expect(engine.sessions.expireIdle(now: start.addingTimeInterval(14)) == [session.id])
        #expect(engine.sessions.session(id: session.id) == nil)
    }

    @Test("upstream links in bodies point at the session's base URL")
    func linksStayInTheSession() async throws {
        let store = StubStore(root: Repository.stubs)
        store.reload()
        let engine = StubEngine(
            store: store, journalCapacity: 10, rewriteUpstreamLinks: true, baseURL: "http://127.0.0.1:9")
        let session = try engine.sessions.create(name: nil, idleTimeoutSeconds: nil)
        guard
            case .response(let page) = engine.handle(
                HTTPRequest(method: "GET", rawURL: session.basePath + "/api/v2/pokemon/"))
        else {
            Issue.record("expected a response")
            return
        }
        #expect(
            page.body.text.contains(
                "\"next\":\"http://127.0.0.1:9\(session.basePath)/api/v2/pokemon/?offset=20&limit=20\""))
    }
}

@Suite("Waiting for requests without polling")
struct WaitTests {
    @Test("a wait returns as soon as the requests arrive")
    func returnsEarly() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            async let waited = server.admin(
                "POST", "/requests/wait?count=2&timeoutMs=20000",
                json: #"{"urlPathPattern": "/api/v2/pokemon/[0-9]+/"}"#)
            try await eventually("the wait is open") { server.engine.journal.waitingCount == 1 }
            _ = try await server.send("GET", "/api/v2/pokemon/1/")
            _ = try await server.send("GET", "/api/v2/type/1/")
            _ = try await server.send("GET", "/api/v2/pokemon/2/")
            let (status, body) = try await waited
            #expect(status == 200)
            #expect(body["count"] == .integer(2))
        }
    }

    @Test("a wait that times out answers 408 naming how many arrived, with near misses")
    func timesOut() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            _ = try await server.send("GET", "/api/v2/pokemon/1/")
            _ = try await server.send("POST", "/api/v2/pokemon/1/")
            let (status, body) = try await server.admin(
                "POST", "/requests/wait?count=2&timeoutMs=300",
                json: #"{"method": "GET", "urlPath": "/api/v2/pokemon/1/"}"#)
            #expect(status == 408)
            #expect(body["count"] == .integer(1))
            #expect("\(body)".contains("1 of 2 matching requests arrived within 300 ms"))
            guard case .array(let misses)? = body["nearMisses"], let first = misses.first else {
                Issue.record("no near misses in \(body)")
                return
            }
            #expect(first["differences"] == .array([.string(#"method: expected "GET", got "POST""#)]))
        }
    }

    @Test("waits hold no server thread: one thread serves others while three waits are open")
    func waitsHoldNoThread() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs, threads: 1) { server in
            let waits = (0..<3).map { index in
                Task {
                    try await server.admin(
                        "POST", "/requests/wait?count=1&timeoutMs=30000", json: #"{"urlPath": "/w/\#(index)"}"#)
                }
            }
            try await eventually("three waits are open") { server.engine.journal.waitingCount == 3 }
            for id in 1...10 { #expect(try await server.send("GET", "/api/v2/pokemon/\(id)/").status == 200) }
            #expect(server.engine.journal.waitingCount == 3)
            for index in 0..<3 { _ = try await server.send("GET", "/w/\(index)") }
            for wait in waits { #expect(try await wait.value.0 == 200) }
        }
    }

    @Test("a wait inside a session counts that session's requests only")
    func sessionWait() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            let (_, session) = try await server.admin("POST", "/sessions", json: "{}")
            let id = try #require(session["id"]?.stringValue)
            async let waited = server.admin(
                "POST", "/sessions/\(id)/requests/wait?count=1&timeoutMs=20000",
                json: #"{"urlPath": "/api/v2/berry/1/"}"#)
            try await eventually("the session's wait is open") {
                server.engine.sessions.session(id: id)?.journal.waitingCount == 1
            }
            _ = try await server.send("GET", "/api/v2/berry/1/")  // outside the session: does not count
            #expect(server.engine.journal.count == 1)
            _ = try await server.send("GET", "/__sessions/\(id)/api/v2/berry/1/")
            let (status, body) = try await waited
            #expect(status == 200)
            #expect(body["count"] == .integer(1))
        }
    }
}
