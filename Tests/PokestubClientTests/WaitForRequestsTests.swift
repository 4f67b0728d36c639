import Foundation
import PokestubClient
import PokestubCore
import PokestubLocking
import PokestubServer
import PokestubTestSupport
import PokestubTesting
import Testing

@Suite("Waiting for requests")
struct WaitForRequestsTests {
    @Test("the server-side wait returns as soon as the request arrives, without polling")
    func returnsEarly() async throws {
        try await withStubServer(mappings: [StubBuilder.get("/late")]) { server in
            let url = server.url("/late")
            let journal = server.engine.journal
            let sender = Task {
                // Send once the server holds the wait (or after 5 s, when the expectation below fails).
                let clock = ContinuousClock()
                let deadline = clock.now + .seconds(5)
                while journal.waitingCount == 0 && clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                #expect(journal.waitingCount == 1, "the server holds the wait")
                _ = try await HTTPFetch.send(url)
            }
            let clock = ContinuousClock()
            let started = clock.now
            // A poll would only look again after 30 s; the server answers when the request arrives.
            let count = try await server.admin.waitForRequests(
                .atLeast(1), .get("/late"), timeout: .seconds(20), pollInterval: .seconds(30))
            #expect(count == 1)
            #expect(clock.now - started < .seconds(10))
            try await sender.value
        }
    }

    @Test("requests already in the journal count")
    func countsThoseAlreadyThere() async throws {
        try await withStubServer(mappings: [StubBuilder.get("/early")]) { server in
            for _ in 0..<3 { _ = try await HTTPFetch.send(server.url("/early")) }
            #expect(try await server.admin.waitForRequests(.atLeast(2), .get("/early"), timeout: .seconds(5)) == 3)
            #expect(try await server.admin.waitForRequests(.exactly(3), .get("/early"), timeout: .seconds(5)) == 3)
            #expect(try await server.admin.waitForRequests(.never, .get("/other"), timeout: .seconds(5)) == 0)
        }
    }

    @Test("a timed-out wait names the count and how the closest requests differ")
    func timeoutShowsNearMisses() async throws {
        try await withStubServer(mappings: [StubBuilder.any(.any).willReturn(.status(204))]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/1/"), method: "POST")
            // A default `#line` inside a macro's closure argument is the line the macro starts on.
            let line = #line + 1
            let error = await #expect(throws: PokestubClientError.self) {
                try await server.admin.waitForRequests(
                    .atLeast(1), .get("/api/v2/pokemon/1/"), timeout: .milliseconds(300))
            }
            guard case .timedOut(_, _, let actualCount, _, let closest, let callSite)? = error else {
                Issue.record("expected a timeout, got \(String(describing: error))")
                return
            }
            #expect(actualCount == 0)
            #expect(callSite == CallSite(filePath: #filePath, line: line))
            #expect(closest.map(\.differences) == [[#"method: expected "GET", got "POST""#]])
            #expect(
                error?.description == """
                    WaitForRequestsTests.swift:\(line): timed out after 0.3 seconds waiting for at least 1 request matching GET /api/v2/pokemon/1/; 0 matched

                    Closest requests:
                      POST /api/v2/pokemon/1/
                        method: expected "GET", got "POST"
                    """)
        }
    }

    @Test("a wait through a session's client counts that session's requests only")
    func waitInSession() async throws {
        try await withStubServer(mappings: [StubBuilder.get("/api/v2/berry/1/")]) { server in
            try await server.admin.withSession { session in
                _ = try await HTTPFetch.send(server.url("/api/v2/berry/1/"))  // the daemon's, not the session's
                let line = #line + 1
                let error = await #expect(throws: PokestubClientError.self) {
                    try await session.admin.waitForRequests(
                        .atLeast(1), .get("/api/v2/berry/1/"), timeout: .milliseconds(200))
                }
                #expect(
                    error?.description.hasPrefix("WaitForRequestsTests.swift:\(line): timed out after 0.2 seconds")
                        == true,
                    "\(String(describing: error))")

                let url = session.baseURL.appendingPathComponent("api/v2/berry/1/")
                let sessions = server.engine.sessions
                let sender = Task {
                    try await eventually("the session's server holds the wait") {
                        sessions.session(id: session.id)?.journal.waitingCount == 1
                    }
                    _ = try await HTTPFetch.send(url)
                }
                #expect(
                    try await session.admin.waitForRequests(
                        .atLeast(1), .get("/api/v2/berry/1/"), timeout: .seconds(10))
                        == 1)
                try await sender.value
            }
        }
    }

    @Test("an older daemon without the wait route is polled instead", arguments: [404, 405])
    func fallsBackToPolling(status: Int) async throws {
        let made = Locked<NoWaitHandler?>(nil)
        let makeHandler: @Sendable (StubEngine) -> any HTTPHandler = { engine in
            let handler = NoWaitHandler(engine: engine, status: status)
            made.withLock { $0 = handler }
            return handler
        }
        try await OwnServer.with(handler: makeHandler) { baseURL in
            let handler = try #require(made.withLock { $0 })
            let admin = PokestubAdminClient(baseURL: baseURL)
            try await admin.addStub(StubBuilder.get("/late"))
            let url = baseURL.appendingPathComponent("late")
            let sender = Task {
                try await eventually("the client asked for the wait route") {
                    handler.waitRequests.withLock { $0 } == 1
                }
                _ = try await HTTPFetch.send(url)
            }
            let count = try await admin.waitForRequests(
                .atLeast(1), .get("/late"), timeout: .seconds(10), pollInterval: .milliseconds(20))
            #expect(count == 1)
            #expect(handler.waitRequests.withLock { $0 } == 1)
            try await sender.value

            let line = #line + 1
            let error = await #expect(throws: PokestubClientError.self) {
                try await admin.waitForRequests(.atLeast(2), .get("/late"), timeout: .milliseconds(100))
            }
            #expect(
                error?.description
                    == "WaitForRequestsTests.swift:\(line): timed out after 0.1 seconds waiting for at least 2 "
                    + "requests matching GET /late; 1 matched")
        }
    }
}
