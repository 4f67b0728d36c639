import Foundation
import PokemonClient
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The examples of Sources/PokestubClient/PokestubClient.docc, run against an in-process server with the shipped
// stubs, whose admin client stands in for the daemon's.

@Suite("PokestubClient: overview and getting started")
struct PokestubClientExamples {
    @Test("the getting-started scenario moves on a POST, and the admin client reads, sets and resets it")
    func scenarios() async throws {
        try await withStubServer { server in
            let admin = server.admin
            try await admin.addStubs([
                StubBuilder.get("/api/v2/team").inScenario("team")
                    .whenScenarioStateIs(StubBuilder.scenarioStarted).willReturn(.json([])),
                StubBuilder.post("/api/v2/team").inScenario("team").willSetStateTo("has pikachu")
                    .willReturn(.status(201)),
                StubBuilder.get("/api/v2/team").inScenario("team")
                    .whenScenarioStateIs("has pikachu").willReturn(.json(["pikachu"])),
            ])
            var add = URLRequest(url: admin.baseURL.appendingPathComponent("api/v2/team"))
            add.httpMethod = "POST"
            _ = try await URLSession.shared.data(for: add)  // what the app sends when the user adds pikachu
            #expect(try await admin.scenarios().first?.state == "has pikachu")
            try await admin.setScenarioState("team", to: StubBuilder.scenarioStarted)  // or start a test mid-flow
            try await admin.resetScenarios()  // every scenario back to Started
            try await admin.verify(count: 1, .post("/api/v2/team"))
        }
    }

    /// Compiled, not run: these examples name a fixed daemon address.
    func connecting(adminToken: String) async throws {
        do {
            let admin = try PokestubAdminClient()  // POKEMON_URL, else http://127.0.0.1:8080
            let remote = PokestubAdminClient(baseURL: URL(string: "http://ci-host:8080")!, token: adminToken)
            _ = (admin, remote)
        }
        do {
            let admin = try PokestubAdminClient(environment: ["POKEMON_URL": "http://127.0.0.1:49152"])
            let health = try await admin.health()  // health.isHealthy, health.stubCount
            _ = health
        }
    }

    @Test("the overview's list stub answers an empty page")
    func overviewStub() async throws {
        try await withStubServer { server in
            let admin = server.admin
            try await admin.addStub(
                StubBuilder.get("/api/v2/pokemon/")
                    .withQueryParameter("limit", .equalTo("20"))
                    .willReturn(.json(["count": 0, "next": nil, "previous": nil, "results": []])))
            let page = try await PokemonClient(environment: server.environment).pokemonPage(offset: 0, limit: 20)
            #expect(page.count == 0 && page.results.isEmpty)
        }
    }

    @Test("the getting-started stubs answer bodies PokemonClient decodes; verify, wait and reset work as shown")
    func gettingStarted() async throws {
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            let admin = server.admin
            // The real pikachu from the daemon's stub folder (stubs/__files/pokemon/25.json in a clone).
            let stub = try await admin.addStub(
                StubBuilder.get("/api/v2/pokemon/25/")
                    .willReturn(.file("pokemon/25.json"))
                    .withName("pikachu"))

            // A body written here: the first page of the list, with one entry.
            try await admin.addStub(
                StubBuilder.get("/api/v2/pokemon/")
                    .withQueryParameter("limit", .equalTo("20"))
                    .willReturn(
                        .json([
                            "count": 1, "next": nil, "previous": nil,
                            "results": [["name": "pikachu", "url": "https://pokeapi.co/api/v2/pokemon/25/"]],
                        ])))

            try await admin.addStub(
                StubBuilder.get("/api/v2/pokemon/0/").willReturn(.text("Not Found", status: 404)))
            try await admin.addStub(
                StubBuilder.get(.pathTemplate("/api/v2/type/{id}/")).willReturn(.fault(.connectionResetByPeer)))
            #expect(stub.name == "pikachu")

            let client = try PokemonClient(environment: server.environment)
            #expect(try await client.pokemon(id: 25).name == "pikachu")
            #expect(try await client.pokemonPage(offset: 0, limit: 20).results.map(\.name) == ["pikachu"])
            let favorite = try await HTTPFetch.send(
                server.url("/api/v2/favorites/"), method: "POST", body: Data(#"{"trainer": "ash"}"#.utf8))
            #expect(favorite.status == 404, "no stub answers it, but the journal has it")

            try await admin.verify(count: 1, .get("/api/v2/pokemon/25/"))
            try await admin.verify(.never, .get("/api/v2/pokemon/0/"))
            try await admin.verify(
                .post("/api/v2/favorites/").withRequestBody(.matchesJsonPath("$.trainer", .equalTo("ash"))))

            try await admin.waitForRequests(.atLeast(1), .get("/api/v2/pokemon/25/"), timeout: .seconds(5))
            try await admin.expectRequests(.atLeast(1), .get("/api/v2/pokemon/25/"), timeout: .seconds(5))

            try await admin.reset()  // empties the journal and drops the stubs added at run time
            #expect(try await admin.requests().isEmpty)
        }
    }

    @Test("a session's stub answers the session's client")
    func session() async throws {
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            let admin = server.admin
            try await admin.withSession(name: "job-42") { session in
                try await session.admin.addStub(
                    StubBuilder.get("/api/v2/pokemon/25/").willReturn(.file("pokemon/25.json")))
                let client = try PokemonClient(environment: session.environment)  // POKEMON_URL = session.baseURL
                _ = try await client.pokemon(id: 25)
                try await session.admin.verify(count: 1, .get("/api/v2/pokemon/25/"))
            }
            try await admin.verify(.never, .get("/api/v2/pokemon/25/"))
        }
    }
}
