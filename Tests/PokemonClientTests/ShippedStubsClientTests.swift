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

    /// The names and paths of the whole Pokémon list in the PokeAPI dump the shipped stubs were made from.
    static func dumpList() throws -> [(name: String, path: String)] {
        let list = try PokeAPIFixtures.decode(PagedList<NamedAPIResource>.self, at: "/api/v2/pokemon/")
        return list.results.map { ($0.name, $0.url.path) }
    }

    @Test(
        "paging by any page size walks the whole list as the dump has it, forward by next and back by previous",
        arguments: [50, 500, 1351, 2000])
    func pagesOfAnySize(pageSize: Int) async throws {
        let expected = try Self.dumpList()
        try #require(expected.count == 1351)
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            let client = try PokemonClient(environment: server.environment)
            var page = try await client.pokemonPage(offset: 0, limit: pageSize)
            #expect(page.previous == nil)
            var pages = [page]
            while let next = try await client.page(after: page) {
                #expect(next.count == 1351)
                pages.append(next)
                page = next
            }
            let walked = pages.flatMap(\.results)
            #expect(walked.map(\.name) == expected.map(\.name))
            #expect(walked.map(\.url.path) == expected.map(\.path))
            #expect(pages.count == (1351 + pageSize - 1) / pageSize)
            // Back by `previous` links (offset - limit, clipped at 0, as pokeapi.co writes them) from the last
            // page asked for with the full limit: the `next` that led to it was clipped to what remained.
            page = try await client.pokemonPage(offset: (pages.count - 1) * pageSize, limit: pageSize)
            var back = 0
            while let previous = try await client.page(before: page) {
                #expect(previous.results.count == pageSize)
                back += 1
                page = previous
            }
            #expect(back == pages.count - 1)
            #expect(page.results.first?.name == "bulbasaur")
            #expect(try await server.admin.unmatchedRequests().isEmpty)
        }
    }

    @Test("a page at any offset and limit is the dump's slice, as pokeapi.co answers it")
    func pageAtAnyOffset() async throws {
        let expected = try Self.dumpList()
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            let client = try PokemonClient(environment: server.environment)
            let page = try await client.pokemonPage(offset: 10, limit: 50)
            #expect(page.results.map(\.name) == expected[10..<60].map(\.name))
            #expect(page.next?.query == "offset=60&limit=50")
            #expect(page.previous?.query == "offset=0&limit=10")
            let tail = try await client.pokemonPage(offset: 1340, limit: 50)
            #expect(tail.results.map(\.name) == expected[1340...].map(\.name))
            #expect(tail.next == nil)
            let past = try await client.pokemonPage(offset: 5000, limit: 20)
            #expect(past.results.isEmpty)
            #expect(past.count == 1351)
            #expect(past.previous?.query == "offset=4980&limit=20")
            // pokeapi.co reads limit=0 as its default, 20.
            #expect(try await client.pokemonPage(offset: 0, limit: 0).results.count == 20)
        }
    }
}
