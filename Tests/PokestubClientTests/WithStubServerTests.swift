import Foundation
import PokestubClient
import PokestubLocking
import PokestubTestSupport
import PokestubTesting
import Testing

@Suite("withStubServer")
struct WithStubServerTests {
    struct Boom: Error {}

    @Test("the server stops when the body throws")
    func stopsOnThrow() async throws {
        let seen = Locked<URL?>(nil)
        await #expect(throws: Boom.self) {
            try await withStubServer(mappings: [StubBuilder.get("/a")]) { server in
                seen.withLock { $0 = server.baseURL }
                #expect(try await HTTPFetch.send(server.url("/a")).status == 200)
                throw Boom()
            }
        }
        let baseURL = try #require(seen.withLock { $0 })
        await #expect(throws: (any Error).self, "nothing listens any more") {
            _ = try await HTTPFetch.send(baseURL.appendingPathComponent("a"))
        }
    }

    @Test("the synchronous variant also stops the server when the body throws")
    func syncStopsOnThrow() async throws {
        var seen: URL?
        #expect(throws: Boom.self) {
            try withStubServerSync { server in
                seen = server.baseURL
                #expect(server.port > 0)
                throw Boom()
            }
        }
        let baseURL = try #require(seen)
        await #expect(throws: (any Error).self) {
            _ = try await HTTPFetch.send(baseURL.appendingPathComponent("a"))
        }
    }

    @Test("the body gets the base URL, an admin client and a POKEMON_URL environment")
    func handsOverTheServer() async throws {
        try await withStubServer { server async throws in
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
            #expect(server.environment == ["POKEMON_URL": "http://127.0.0.1:\(server.port)"])
            #expect(server.admin.baseURL == server.baseURL)
            #expect(try await server.admin.health().isHealthy)
        }
    }

    @Test("a route answers with a closure before the stubs, and is journaled")
    func routes() async throws {
        let route = StubRoute("GET /api/v2/pokemon") { request in
            .json(.object(["limit": .string(request.queryValues("limit").first ?? "none")]))
        }
        let stub = StubBuilder.get("/api/v2/pokemon/").willReturn(.text("from the stub"))
        try await withStubServer(mappings: [stub], routes: [route]) { server in
            let answer = try await HTTPFetch.send(server.url("/api/v2/pokemon/?limit=20"))
            #expect(answer.status == 200)
            #expect(try JSONValue(parsing: answer.body) == ["limit": "20"])

            let entry = try #require(try await server.admin.requests().first)
            #expect(entry.wasMatched)
            #expect(entry.stubName == "route GET /api/v2/pokemon")
            #expect(entry.stubID == route.id)
            try await server.admin.verify(
                count: 1, .get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20")))

            let post = try await HTTPFetch.send(server.url("/api/v2/pokemon/"), method: "POST")
            #expect(post.status == 404, "the route is for GET only, and no stub takes POST")
        }
    }

    @Test("async routes and routes added while running answer too")
    func asyncAndAppendedRoutes() async throws {
        try await withStubServer { server in
            server.appendRoute("POST /api/v2/team") { request in
                await Task.yield()
                return RouteResponse(status: 201, body: request.body)
            }
            server.appendRoute("/echo/*") { request in .text(request.path) }

            let created = try await HTTPFetch.send(server.url("/api/v2/team"), method: "POST", body: Data("ash".utf8))
            #expect(created.status == 201)
            #expect(created.text == "ash")
            #expect(try await HTTPFetch.send(server.url("/echo/a/b")).text == "/echo/a/b")
            try await server.admin.verify(count: 1, .post("/api/v2/team").withRequestBody(.equalTo("ash")))
        }
    }

    @Test("mappings can be JSON text, including a {\"mappings\": [...]} file body")
    func jsonMappings() async throws {
        let text = """
            {"mappings": [
              {"request": {"method": "GET", "url": "/one"}, "response": {"body": "1"}},
              {"request": {"method": "GET", "url": "/two"}, "response": {"body": "2"}}]}
            """
        try await withStubServer(mappings: [text]) { server async throws in
            #expect(try await HTTPFetch.send(server.url("/one")).text == "1")
            #expect(try await HTTPFetch.send(server.url("/two")).text == "2")
        }
    }

    @Test("an invalid mapping stops the start with an error naming the field")
    func invalidMapping() async throws {
        let bad = #"{"request": {"method": "GET", "urlPath": 7}, "response": {}}"#
        let error = await #expect(throws: StubServerError.self) {
            try await withStubServer(mappings: [StubBuilder.get("/ok"), bad]) { _ in
                Issue.record("the body must not run")
            }
        }
        let text = error?.description ?? ""
        #expect(text.contains("mappings[1]"), "\(text)")
        #expect(text.contains("request.urlPath"), "\(text)")
    }

    @Test("a stubs directory is served, with body files")
    func stubsDirectory() async throws {
        let stubs = try TemporaryDirectory.stubRoot(
            mappings: ["pokemon.json": #"{"request": {"urlPath": "/p"}, "response": {"bodyFileName": "p.json"}}"#],
            files: ["p.json": #"{"name": "bulbasaur"}"#])
        defer { stubs.removeFolder() }
        let added = StubBuilder.get("/q").willReturn(.file("p.json"))
        try await withStubServer(mappings: [added], stubsDirectory: stubs.path) { server async throws in
            #expect(try await HTTPFetch.send(server.url("/p")).text == #"{"name": "bulbasaur"}"#)
            #expect(try await HTTPFetch.send(server.url("/q")).text == #"{"name": "bulbasaur"}"#)
        }
    }

    @Test("a stubs directory with a broken file stops the start with the file's problem")
    func brokenStubsDirectory() async throws {
        let stubs = try TemporaryDirectory.stubRoot(mappings: ["broken.json": "{"])
        defer { stubs.removeFolder() }
        let error = await #expect(throws: StubServerError.self) {
            try await withStubServer(stubsDirectory: stubs.path) { _ in }
        }
        #expect(error?.description.contains("broken.json") == true, "\(error?.description ?? "")")
    }
}

@Suite("withStubServer: stub folders")
struct StubFolderTests {
    @Test("the shipped stubs' location is the repository's stubs folder, and it serves bulbasaur")
    func shippedStubs() async throws {
        #expect(StubServer.shippedStubsDirectory == URL(fileURLWithPath: Repository.stubs).standardizedFileURL.path)
        try await withStubServer(stubsDirectory: StubServer.shippedStubsDirectory) { server async throws in
            #expect(try await HTTPFetch.send(server.url("/api/v2/pokemon/1/")).status == 200)
        }
    }

    @Test("a missing stub folder fails the start naming its absolute path and what to pass instead")
    func missingFolder() async throws {
        let error = await #expect(throws: StubServerError.self) {
            try await withStubServer(stubsDirectory: "no-such-stubs") { _ in
                Issue.record("the body must not run")
            }
        }
        let text = error?.description ?? ""
        let absolute = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            .appendingPathComponent("no-such-stubs").standardizedFileURL.path
        #expect(text.contains("the stub folder \(absolute) does not exist"), "\(text)")
        #expect(text.contains("StubServer.shippedStubsDirectory"), "\(text)")
    }

    @Test("a file given as the stub folder is refused as not a folder")
    func fileInsteadOfFolder() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.removeFolder() }
        let file = try folder.write("{}", to: "mapping.json")
        let error = await #expect(throws: StubServerError.self) {
            try await withStubServer(stubsDirectory: file.path) { _ in }
        }
        #expect(error?.description.contains("\(file.standardizedFileURL.path) is not a folder") == true)
    }
}
