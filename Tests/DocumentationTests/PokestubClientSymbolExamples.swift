import Foundation
import PokemonClient
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

// The examples in the documentation comments of Sources/PokestubClient: run against an in-process server where
// they need no real API, fixed port or app.

@Suite("PokestubClient: symbol documentation")
struct PokestubClientSymbolExamples {
    /// Compiled, not run: it records from pokeapi.co.
    func recording(admin: PokestubAdminClient) async throws {
        try await admin.startRecording(from: URL(string: "https://pokeapi.co")!)
        // … run the app against the daemon …
        let recorded = try await admin.stopRecording()
        _ = recorded
    }

    /// Compiled, not run: it asks the daemon at POKEMON_URL, else http://127.0.0.1:8080.
    func adminClientOverview() async throws {
        let admin = try PokestubAdminClient()  // POKEMON_URL, else http://127.0.0.1:8080; POKESTUB_ADMIN_TOKEN
        try await admin.addStub(
            StubBuilder.get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20"))
                .willReturn(.json(["count": 0, "next": nil, "previous": nil, "results": []])))
        // … run the app …
        try await admin.verify(count: 1, .get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20")))
    }

    /// Compiled, not run: it asks the daemon at POKEMON_URL, else http://127.0.0.1:8080.
    func failureAttachmentRecorder() throws -> PokestubAdminClient {
        let admin = try PokestubAdminClient().recordingFailureAttachments { attachments in
            for attachment in attachments { print(attachment.name, attachment.data.count) }
        }
        return admin
    }

    /// Compiled, not run: it launches an app (XCUITest's stand-in here).
    func sessionForAnApp(admin: PokestubAdminClient, app: XCUIApplication) async throws {
        try await admin.withSession(name: "job-42") { session in
            try await session.admin.addStub(
                StubBuilder.get("/api/v2/pokemon/25/").willReturn(.json(["name": "pikachu"])))
            app.launchEnvironment = session.environment
            app.launch()
            try await session.admin.waitForRequests(.atLeast(1), .get("/api/v2/pokemon/25/"))
        }
    }

    @Test("a session's stub answers the session's client, and verify sees it")
    func session() async throws {
        let page: JSONValue = ["count": 0, "next": nil, "previous": nil, "results": []]
        try await withStubServer { server in
            let admin = server.admin
            try await admin.withSession(name: "job-42") { session in
                try await session.admin.addStub(StubBuilder.get("/api/v2/pokemon/").willReturn(.json(page)))
                let client = try PokemonClient(environment: session.environment)
                _ = try await client.pokemonPage(offset: 0, limit: 20)
                try await session.admin.verify(count: 1, .get("/api/v2/pokemon/"))
            }
        }
    }

    @Test("stubs, verification, waits and expectations as the symbols show them")
    func stubAndVerify() async throws {
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            let admin = server.admin
            try await admin.addStub(StubBuilder.get("/api/v2/pokemon/25/").willReturn(.file("pokemon/25.json")))
            let stub = StubBuilder.get("/api/v2/pokemon/")
                .withQueryParameter("limit", .equalTo("20"))
                .willReturn(
                    .json([
                        "count": 2, "next": nil, "previous": nil,
                        "results": [
                            ["name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"],
                            ["name": "ivysaur", "url": "https://pokeapi.co/api/v2/pokemon/2/"],
                        ],
                    ])
                )
                .withName("first page")
            try await admin.addStub(stub)

            let client = try PokemonClient(environment: server.environment)
            #expect(try await client.pokemon(id: 25).name == "pikachu")
            #expect(try await client.pokemonPage(offset: 0, limit: 20).results.map(\.name) == ["bulbasaur", "ivysaur"])
            _ = try await client.pokemon(id: 1)

            #expect(try await admin.expectRequests(.exactly(1), .get("/api/v2/pokemon/25/")))  // or alone:
            try await admin.expectRequests(.never, .get("/api/v2/pokemon/0/"))
            try await admin.expectRequests(.atLeast(1), .get("/api/v2/pokemon/25/"), timeout: .seconds(5))
            try await admin.verify(count: 1, .get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20")))
            try await admin.waitForRequests(.atLeast(1), .get("/api/v2/pokemon/1/"), timeout: .seconds(5))
            try await admin.verify(.exactly(1), .get("/api/v2/pokemon/"))
            try await admin.verify(.never, .get("/api/v2/pokemon/9999/"))
            let pattern = RequestPatternBuilder.get("/api/v2/pokemon/")
                .withQueryParameter("limit", .equalTo("20"))
                .withHeader("Accept", .contains("json"))
            try await admin.verify(count: 1, pattern)
        }
    }

    @Test("stub and pattern builders share one vocabulary of value matchers")
    func builders() async throws {
        let stub = StubBuilder.get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20"))
        let pattern = RequestPatternBuilder.post("/api/v2/team").withRequestBody(.matchesJsonPath("$.name"))
        #expect(stub.requestPattern.json["queryParameters"] == ["limit": ["equalTo": "20"]])
        #expect(pattern.json["bodyPatterns"] == [["matchesJsonPath": "$.name"]])

        let team = RequestPatternBuilder.post("/api/v2/team")
            .withQueryParameter("limit", .equalTo("20"))
            .withHeader("Accept", .contains("json"))
            .withRequestBody(.equalToJson(["name": "bulbasaur"], ignoreExtraElements: true))
            .withRequestBody(.matchesJsonPath("$.team[?(@.name == 'pikachu')]"))
        try await withStubServer { server in
            _ = try await HTTPFetch.send(
                server.url("/api/v2/team?limit=20"), method: "POST",
                body: Data(#"{"name": "bulbasaur", "team": [{"name": "pikachu"}]}"#.utf8),
                headers: ["Accept": "application/json"])
            try await server.admin.verify(count: 1, team)
        }
    }

    @Test("a scenario's stubs answer by state, and mappings mix builders and JSON text")
    func scenarioAndMappings() async throws {
        let empty = StubBuilder.get("/api/v2/team").inScenario("team")
            .whenScenarioStateIs(StubBuilder.scenarioStarted).willReturn(.json([]))
        let add = StubBuilder.post("/api/v2/team").inScenario("team").willSetStateTo("has pikachu")
        let full = StubBuilder.get("/api/v2/team").inScenario("team")
            .whenScenarioStateIs("has pikachu").willReturn(.json(["pikachu"]))
        let mappings: [any StubMappingConvertible] = [
            StubBuilder.get("/api/v2/pokemon/1/").willReturn(.file("pokemon/1.json")),
            #"{"request": {"method": "GET", "urlPath": "/api/v2/type/1/"}, "response": {"status": 404}}"#,
        ]
        try await withStubServer(mappings: [empty, add, full], stubsDirectory: Repository.stubs) { server in
            try await server.admin.addStubs(mappings)
            #expect(try await HTTPFetch.send(server.url("/api/v2/team")).body == Data("[]".utf8))
            _ = try await HTTPFetch.send(server.url("/api/v2/team"), method: "POST")
            #expect(try await HTTPFetch.send(server.url("/api/v2/team")).body == Data(#"["pikachu"]"#.utf8))
            #expect(try await HTTPFetch.send(server.url("/api/v2/type/1/")).status == 404)
            #expect(try await HTTPFetch.send(server.url("/api/v2/pokemon/1/")).status == 200)
        }
    }

    @Test("responses: a JSON body, a late text, a fault")
    func responses() async throws {
        let list = StubResponse.json(["count": 1, "results": [["name": "bulbasaur"]]])
        let missing = StubResponse.text("Not Found", status: 404).withFixedDelay(.milliseconds(250))
        let reset = StubResponse.fault(.connectionResetByPeer)
        #expect(list.json["jsonBody"] == ["count": 1, "results": [["name": "bulbasaur"]]])
        #expect(missing.json["fixedDelayMilliseconds"] == 250)
        #expect(reset.json["fault"] == "CONNECTION_RESET_BY_PEER")
    }
}
