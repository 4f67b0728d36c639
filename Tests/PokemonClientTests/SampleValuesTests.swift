import Foundation
import PokemonClient
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

/// The sample values are the shipped stubs' Pokémon, field for field, and what they encode to is what
/// `PokemonClient` decodes from a server.
@Suite("Sample values")
struct SampleValuesTests {
    @Test("Pokemon.bulbasaur and .pikachu equal the shipped stubs' bodies, decoded", arguments: [1, 25])
    func samplesAreTheShippedBodies(id: Int) throws {
        let file = URL(fileURLWithPath: Repository.stubs).appendingPathComponent("__files/pokemon/\(id).json")
        let shipped = try JSONDecoder().decode(Pokemon.self, from: Data(contentsOf: file))
        #expect(shipped == (id == 1 ? Pokemon.bulbasaur : Pokemon.pikachu))
    }

    @Test("a stub encoding a sample answers PokemonClient with that sample")
    func encodedSamplesDecode() async throws {
        let stubs = [
            try StubBuilder.get("/api/v2/pokemon/25/").willReturn(.json(encoding: Pokemon.pikachu)),
            try StubBuilder.get("/api/v2/pokemon/").willReturn(.json(encoding: PagedList.samplePokemonList)),
        ]
        try await withStubServer(mappings: stubs) { server in
            let client = try PokemonClient(environment: server.environment)
            #expect(try await client.pokemon(id: 25) == .pikachu)
            let page = try await client.pokemonPage(offset: 0, limit: 20)
            #expect(page == .samplePokemonList)
            #expect(page.results.map(\.name) == ["bulbasaur", "pikachu"])
            #expect(page.results.map(\.id) == [1, 25])
        }
    }

    @Test("a closure route answers a sample, encoded")
    func routeAnswersASample() async throws {
        let route = StubRoute("GET /api/v2/pokemon/:id") { request in
            let sample = request.parameters["id"] == "1" ? Pokemon.bulbasaur : Pokemon.pikachu
            return try .json(encoding: sample)
        }
        try await withStubServer(routes: [route]) { server in
            let client = try PokemonClient(environment: server.environment)
            #expect(try await client.pokemon(id: 1) == .bulbasaur)
            #expect(try await client.pokemon(id: 25).height == 4)
        }
    }
}
