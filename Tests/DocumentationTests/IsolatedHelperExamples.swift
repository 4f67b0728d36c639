import PokemonClient
import PokestubClient
import PokestubTesting
import Testing

// The isolation-inheriting helper of Sources/PokestubTesting/PokestubTesting.docc/GettingStarted.md, compiled in
// Swift 6 mode and run from a @MainActor test.

func withPokemonServer<Result>(
    _ stubs: [StubBuilder],
    isolation: isolated (any Actor)? = #isolation,
    _ body: (PokemonClient, StubServer) async throws -> sending Result
) async throws -> sending Result {
    try await withStubServer(mappings: stubs, isolation: isolation) { server in
        try await body(try PokemonClient(environment: server.environment), server)
    }
}

@MainActor
final class FirstPageModel {
    var names: [String] = []
    func load(from client: PokemonClient) async throws {
        names = try await client.pokemonPage(offset: 0, limit: 20).results.map(\.name)
    }
}

@Test @MainActor
func firstPageFromAHelper() async throws {
    let model = FirstPageModel()
    let page = StubBuilder.get("/api/v2/pokemon/").willReturn(
        .json([
            "count": 1, "next": nil, "previous": nil,
            "results": [["name": "pikachu", "url": "https://pokeapi.co/api/v2/pokemon/25/"]],
        ]))
    try await withPokemonServer([page]) { client, server in
        try await model.load(from: client)
        try await server.admin.verify(count: 1, .get("/api/v2/pokemon/"))
    }
    #expect(model.names == ["pikachu"])
}
