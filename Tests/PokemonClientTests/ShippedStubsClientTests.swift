import Foundation
import PokemonClient
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

/// `PokemonClient` against the stubs shipped in `stubs/`, served in process: real PokeAPI bodies, whose links
/// point at https://pokeapi.co and are re-based by the client onto the test server.
@Suite("PokemonClient against the shipped stubs")
struct ShippedStubsClientTests {
    @Test("pokemon 1 is bulbasaur, by id and by name")
    func bulbasaur() async throws {
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            let client = try PokemonClient(environment: server.environment)
            let byID = try await client.pokemon(id: 1)
            #expect(byID.name == "bulbasaur")
            #expect(byID.types.map(\.type.name) == ["grass", "poison"])
            let byName = try await client.pokemon(name: "bulbasaur")
            #expect(byName.id == 1)
            try await server.admin.verify(count: 1, .get("/api/v2/pokemon/1/"))
            try await server.admin.verify(count: 1, .get("/api/v2/pokemon/bulbasaur/"))
        }
    }

    @Test("species 669 is Flabébé, accents and all")
    func flabebe() async throws {
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            let species = try await PokemonClient(environment: server.environment).species(id: 669)
            #expect(species.name == "flabebe")
            #expect(species.names.map(\.name).contains("Flabébé"))
        }
    }

    @Test("type 1 is normal")
    func normalType() async throws {
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            let type = try await PokemonClient(environment: server.environment).type(id: 1)
            #expect(type.name == "normal")
            #expect(!type.pokemon.isEmpty)
        }
    }

    @Test("paging by 20 follows next links through all 1351 entries, never leaving the test server")
    func allPokemon() async throws {
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            let all = try await PokemonClient(environment: server.environment).allPokemon(pageSize: 20)
            #expect(all.count == 1351)
            #expect(all.first?.name == "bulbasaur")
            #expect(Set(all.map(\.name)).count == all.count)
            let pages = (1351 + 19) / 20
            try await server.admin.verify(count: pages, .get("/api/v2/pokemon/"))
            try await server.admin.verify(
                count: 1, .get("/api/v2/pokemon/").withQueryParameter("offset", .equalTo("1340")))
            #expect(try await server.admin.unmatchedRequests().isEmpty)
        }
    }
}
