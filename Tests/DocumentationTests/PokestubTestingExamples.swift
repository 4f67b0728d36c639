import Foundation
import PokemonClient
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The examples of Sources/PokestubTesting/PokestubTesting.docc and of Docs/SwiftLibraries.md, run as tests.

@Test("the list screen shows the first page")
func listScreen() async throws {
    let firstPage = StubBuilder.get("/api/v2/pokemon/")
        .withQueryParameter("limit", .equalTo("20"))
        .willReturn(
            .json([
                "count": 1, "next": nil, "previous": nil,
                "results": [
                    ["name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"]
                ],
            ]))
    try await withStubServer(mappings: [firstPage]) { server in
        let client = try PokemonClient(environment: server.environment)  // POKEMON_URL = server.baseURL
        let page = try await client.pokemonPage(offset: 0, limit: 20)
        #expect(page.results.map(\.name) == ["bulbasaur"])
        try await server.admin.verify(
            count: 1, .get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20")))
    }
}

@Suite("PokestubTesting: getting started")
struct PokestubTestingGettingStartedExamples {
    @Test("a server with the shipped stubs answers the real bulbasaur")
    func shippedStubs() async throws {
        try await withStubServer(stubsDirectory: StubServer.shippedStubsDirectory) { server in
            let client = try PokemonClient(environment: server.environment)
            let bulbasaur = try await client.pokemon(id: 1)
            #expect(bulbasaur.name == "bulbasaur")
        }
    }

    @Test("closure routes answer with RouteResponse values the app decodes")
    func closureRoutes() async throws {
        // The first page of the list, half a second late: time to see the app's loading state.
        let slowList = StubRoute("GET /api/v2/pokemon") { request in
            try await Task.sleep(for: .milliseconds(500))
            return .json([
                "count": 1, "next": nil, "previous": nil,
                "results": [["name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"]],
            ])
        }
        try await withStubServer(routes: [slowList]) { server in
            server.appendRoute("POST /api/v2/favorites") { request in
                RouteResponse(status: request.body.isEmpty ? 400 : 201)
            }
            let client = try PokemonClient(environment: server.environment)
            let page = try await client.pokemonPage(offset: 0, limit: 20)
            #expect(page.results.map(\.name) == ["bulbasaur"])
            try await server.admin.verify(count: 1, .get("/api/v2/pokemon/"))
        }
    }

    @Test("a route builds JSON from the request with JSONValue's cases")
    func jsonFromTheRequest() async throws {
        let echo = StubRoute("GET /echo") { request in
            .json(.object(["limit": .string(request.queryValues("limit").first ?? "20")]))
        }
        try await withStubServer(routes: [echo]) { server in
            let answer = try await HTTPFetch.send(server.url("/echo?limit=5"))
            #expect(try JSONValue(parsing: answer.body) == ["limit": "5"])
            let created = try await HTTPFetch.send(server.url("/echo"))
            #expect(try JSONValue(parsing: created.body) == ["limit": "20"])
        }
    }
}

extension PokestubTestingGettingStartedExamples {
    @Test("a route reads its :name parameter, and a thrown error answers 500 with its description")
    func parametersAndErrors() async throws {
        struct SpeciesLookupError: Error, CustomStringConvertible {
            var name: String
            var description: String { "no species named \(name)" }
        }
        let species = StubRoute("GET /api/v2/pokemon-species/:name") { request in
            guard let name = request.parameters["name"], name != "missingno" else {
                throw SpeciesLookupError(name: request.parameters["name"] ?? "")
            }
            return .json(["name": .string(name), "is_legendary": false])
        }
        try await withStubServer(routes: [species]) { server in
            let (pikachu, _) = try await URLSession.shared.data(from: server.url("/api/v2/pokemon-species/pikachu/"))
            #expect(try JSONValue(parsing: pikachu) == ["name": "pikachu", "is_legendary": false])
            let missingno = server.url("/api/v2/pokemon-species/missingno/")
            let (text, missing) = try await URLSession.shared.data(from: missingno)
            #expect((missing as? HTTPURLResponse)?.statusCode == 500)
            #expect(String(decoding: text, as: UTF8.self) == "no species named missingno")
        }
    }
}

@Suite("Docs/SwiftLibraries.md")
struct SwiftLibrariesGuideExamples {
    @Test("the first page comes from the shipped stubs, and the request is verified")
    func firstPage() async throws {
        try await withStubServer(stubsDirectory: StubServer.shippedStubsDirectory) { server in
            let client = try PokemonClient(environment: server.environment)  // POKEMON_URL = the server
            let page = try await client.pokemonPage(offset: 0, limit: 20)
            #expect(page.results.map(\.name).prefix(2) == ["bulbasaur", "ivysaur"])
            try await server.admin.verify(
                count: 1, .get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20")))
        }
    }
}
