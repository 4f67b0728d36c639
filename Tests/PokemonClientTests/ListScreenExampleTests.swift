import Foundation
import PokemonClient
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

/// Examples that double as tests: the app's list screen against an in-process stub server, then the same
/// flow against the `pokestub` daemon running as a separate process, as a UI test uses it.
@Suite("Example: the list screen")
struct ListScreenExampleTests {
    /// The first page of the list, as pokeapi.co answers it (two entries, links to the real API).
    static let firstPage = StubBuilder.get("/api/v2/pokemon/")
        .withQueryParameter("offset", .equalTo("0"))
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
        .withName("list screen: first page")

    /// What the screen must have sent: one GET of the first page, 20 entries, with a JSON `Accept`.
    static let firstPageRequest = RequestPatternBuilder.get("/api/v2/pokemon/")
        .withQueryParameter("offset", .equalTo("0"))
        .withQueryParameter("limit", .equalTo("20"))
        .withHeader("Accept", .contains("application/json"))

    @Test("the list screen shows bulbasaur and ivysaur, after exactly one GET of the first page")
    func listScreenInProcess() async throws {
        try await withStubServer(mappings: [Self.firstPage]) { server in
            // The app reads POKEMON_URL; the test hands it the server's URL without touching the process.
            let client = try PokemonClient(environment: server.environment)
            let screen = PokemonListModel(service: client, pageSize: 20)

            #expect(try await screen.load() == ["bulbasaur", "ivysaur"])

            try await server.admin.verify(count: 1, Self.firstPageRequest)
            #expect(try await server.admin.unmatchedRequests().isEmpty)
        }
    }

    @Test("the list screen works the same against the pokestub daemon run as a separate process")
    func listScreenAgainstDaemon() async throws {
        try await PokestubProcess.serving(stubs: Repository.stubs) { baseURL in
            let environment = ["POKEMON_URL": baseURL.absoluteString]
            let admin = try PokestubAdminClient(environment: environment)
            #expect(try await admin.health().isHealthy)

            // A runtime stub wins over the shipped stub for the same request (added last, same priority).
            let added = try await admin.addStub(Self.firstPage)
            let screen = PokemonListModel(service: try PokemonClient(environment: environment), pageSize: 20)
            #expect(try await screen.load() == ["bulbasaur", "ivysaur"])
            try await admin.verify(count: 1, Self.firstPageRequest)

            // Removing it brings back the shipped first page of 20.
            try await admin.removeStub(id: added.id)
            #expect(try await screen.load().count == 20)
            try await admin.verify(count: 2, Self.firstPageRequest)

            try await admin.reset()
            try await admin.verify(.never, .any(.any))
        }
    }
}
