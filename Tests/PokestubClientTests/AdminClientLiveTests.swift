import Foundation
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

@Suite("Admin client against a live server")
struct AdminClientLiveTests {
    @Test("an added stub answers, is listed, and stops answering once removed")
    func addListRemove() async throws {
        try await withStubServer { server in
            let added = try await server.admin.addStub(
                StubBuilder.get("/api/v2/pokemon/25/").willReturn(.json(["name": "pikachu"])).withName("pikachu"))
            #expect(added.name == "pikachu")

            let answer = try await HTTPFetch.send(server.url("/api/v2/pokemon/25/"))
            #expect(answer.status == 200)
            #expect(try JSONValue(parsing: answer.body)["name"] == "pikachu")
            #expect(answer.headers["content-type"] == "application/json")

            let listed = try await server.admin.stubs()
            #expect(listed.map(\.id) == [added.id])
            #expect(try await server.admin.stub(id: added.id).request["urlPath"] == "/api/v2/pokemon/25/")

            try await server.admin.removeStub(id: added.id)
            #expect(try await server.admin.stubs().isEmpty)
            #expect(try await HTTPFetch.send(server.url("/api/v2/pokemon/25/")).status == 404)
        }
    }

    @Test("mapping JSON text is accepted as well as builders")
    func jsonText() async throws {
        try await withStubServer { server in
            try await server.admin.addStub(
                #"{"request": {"method": "GET", "url": "/ping"}, "response": {"status": 200, "body": "pong"}}"#)
            #expect(try await HTTPFetch.send(server.url("/ping")).text == "pong")
        }
    }

    @Test("a stub the server rejects fails with its reason, naming the field")
    func rejectedStub() async throws {
        try await withStubServer { server in
            let error = await #expect(throws: PokestubClientError.self) {
                try await server.admin.addStub(
                    StubBuilder.get("/x").withQueryParameter("a", ValueMatcher(json: ["sortOf": "x"])))
            }
            #expect(error?.httpStatus == 400)
            let text = error?.description ?? ""
            #expect(text.contains("pokestub refused POST \(server.baseURL.absoluteString)/__admin/mappings (HTTP 400)"))
            #expect(text.contains("sortOf"), "the reason names the unsupported matcher: \(text)")
        }
    }

    @Test("updating a stub replaces its response")
    func update() async throws {
        try await withStubServer { server in
            let stub = try await server.admin.addStub(StubBuilder.get("/v").willReturn(.text("one")))
            try await server.admin.updateStub(id: stub.id, StubBuilder.get("/v").willReturn(.text("two")))
            #expect(try await HTTPFetch.send(server.url("/v")).text == "two")
            #expect(try await server.admin.stubs().count == 1)
        }
    }

    @Test("the journal lists, finds, counts and removes requests by pattern")
    func journal() async throws {
        try await withStubServer(mappings: [StubBuilder.any(.any).willReturn(.status(204))]) { server in
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/?limit=20"))
            _ = try await HTTPFetch.send(server.url("/api/v2/pokemon/?limit=50"))
            _ = try await HTTPFetch.send(
                server.url("/api/v2/team"), method: "POST", body: Data(#"{"name":"ash"}"#.utf8),
                headers: ["Content-Type": "application/json"])

            let entries = try await server.admin.requests()
            #expect(
                entries.map(\.request.description) == [
                    "POST /api/v2/team", "GET /api/v2/pokemon/?limit=50", "GET /api/v2/pokemon/?limit=20",
                ])
            #expect(entries.allSatisfy { $0.wasMatched && $0.responseStatus == 204 })
            #expect(try await server.admin.requests(limit: 1).count == 1)
            #expect(try await server.admin.request(id: entries[0].id).request.bodyJSON == ["name": "ash"])

            let limit20 = RequestPatternBuilder.get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20"))
            #expect(try await server.admin.countRequests(limit20) == 1)
            let found = try await server.admin.findRequests(.get("/api/v2/pokemon/"))
            #expect(found.map { $0.queryParameters["limit"] ?? [] } == [["20"], ["50"]])
            #expect(found.first?.loggedDate != nil)

            let post = try #require(try await server.admin.findRequests(.post("/api/v2/team")).first)
            #expect(post.header("content-type") == "application/json")
            #expect(post.bodyText == #"{"name":"ash"}"#)

            #expect(try await server.admin.removeRequests(limit20).count == 1)
            #expect(try await server.admin.requests().count == 2)
            try await server.admin.clearRequests()
            #expect(try await server.admin.requests().isEmpty)
        }
    }

    @Test("unmatched requests come with near misses that say what differs")
    func nearMisses() async throws {
        let stub = StubBuilder.get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20"))
            .willReturn(.json([:])).withName("first page")
        try await withStubServer(mappings: [stub]) { server in
            let miss = try await HTTPFetch.send(server.url("/api/v2/pokemon/?limit=21"))
            #expect(miss.status == 404)

            let unmatched = try await server.admin.unmatchedRequests()
            #expect(unmatched.map(\.url) == ["/api/v2/pokemon/?limit=21"])
            let nearMisses = try await server.admin.nearMisses()
            let first = try #require(nearMisses.first)
            #expect(first.stubSummary == #"stub "first page""#)
            #expect(first.differences == [#"query parameter limit: expected equalTo "20", got "21""#])
            #expect(try await server.admin.requests(unmatchedOnly: true).count == 1)
        }
    }

    @Test("reset clears the journal and the runtime stubs")
    func reset() async throws {
        try await withStubServer(mappings: [StubBuilder.get("/a")]) { server in
            _ = try await HTTPFetch.send(server.url("/a"))
            try await server.admin.reset()
            #expect(try await server.admin.requests().isEmpty)
            #expect(try await server.admin.stubs().isEmpty)
        }
    }

    @Test("removing every stub and resetting to files brings the stub files back")
    func removeAllAndResetToFiles() async throws {
        let stubs = try TemporaryDirectory.stubRoot(mappings: [
            "hello.json": #"{"request": {"url": "/hello"}, "response": {"body": "hi"}}"#
        ])
        defer { stubs.removeFolder() }
        try await withStubServer(stubsDirectory: stubs.path) { server in
            try await server.admin.removeAllStubs()
            #expect(try await HTTPFetch.send(server.url("/hello")).status == 404)
            try await server.admin.resetStubs()
            #expect(try await HTTPFetch.send(server.url("/hello")).text == "hi")
        }
    }

    @Test("health reports the stub count")
    func health() async throws {
        try await withStubServer(mappings: [StubBuilder.get("/a"), StubBuilder.get("/b")]) { server in
            let health = try await server.admin.health()
            #expect(health.isHealthy)
            #expect(health.stubCount == 2)
            #expect(health.mode == "replay")
        }
    }

    @Test("a server that is not there is a transport error naming the URL")
    func nothingListening() async throws {
        // A port that refuses connections for the whole test (a stopped server's port could be taken by
        // another test's server meanwhile, which then answered).
        let reserved = try ListeningSocket.refusingPort()
        defer { withExtendedLifetime(reserved) {} }
        let baseURL = try #require(URL(string: "http://127.0.0.1:\(reserved.port)"))
        let admin = PokestubAdminClient(baseURL: baseURL, timeout: .seconds(5))
        let error = await #expect(throws: PokestubClientError.self) { try await admin.health() }
        guard case .transport(let method, let url, _)? = error else {
            Issue.record("expected a transport error, got \(String(describing: error))")
            return
        }
        #expect(method == "GET")
        #expect(url.absoluteString == baseURL.absoluteString + "/__admin/health")
    }

    @Test("waiting for requests returns once they arrive and times out with the count otherwise")
    func waitForRequests() async throws {
        try await withStubServer(mappings: [StubBuilder.get("/late")]) { server in
            let url = server.url("/late")
            let journal = server.engine.journal
            let sender = Task {
                try await eventually("the server holds the wait") { journal.waitingCount == 1 }
                _ = try await HTTPFetch.send(url)
            }
            let count = try await server.admin.waitForRequests(.atLeast(1), .get("/late"), timeout: .seconds(5))
            #expect(count == 1)
            try await sender.value

            // A default `#line` inside a macro's closure argument is the line the macro starts on.
            let line = #line + 1
            let error = await #expect(throws: PokestubClientError.self) {
                try await server.admin.waitForRequests(.exactly(2), .get("/late"), timeout: .milliseconds(200))
            }
            #expect(
                error?.description
                    == "AdminClientLiveTests.swift:\(line): timed out after 0.2 seconds waiting for exactly 2 requests "
                    + "matching GET /late; 1 matched")
        }
    }
}
