import Foundation
import PokemonClient
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

// The examples in the documentation comments of Sources/PokemonClient: run where they need no pokeapi.co.

/// The view model of `InMemoryPokemonService`'s example: anything that takes a service.
struct PokedexModel {
    var service: any PokemonService
}

@Suite("PokemonClient: symbol documentation")
struct PokemonClientSymbolExamples {
    @Test("an in-memory service answers a model from the values it was given")
    func inMemoryService() async throws {
        let speciesLink = NamedAPIResource(
            name: "bulbasaur", url: URL(string: "https://pokeapi.co/api/v2/pokemon-species/1/")!)
        let service = InMemoryPokemonService(pokemon: [Pokemon(id: 1, name: "bulbasaur", species: speciesLink)])
        let model = PokedexModel(service: service)
        #expect(try await model.service.pokemon(id: 1).species == speciesLink)
    }

    @Test("the sample Pokémon and list encode to stubs the client decodes")
    func samples() async throws {
        let bulbasaur = try StubBuilder.get("/api/v2/pokemon/1/").willReturn(.json(encoding: Pokemon.bulbasaur))
        let pikachu = try StubBuilder.get("/api/v2/pokemon/25/").willReturn(.json(encoding: Pokemon.pikachu))
        let list = try StubBuilder.get("/api/v2/pokemon/").willReturn(.json(encoding: PagedList.samplePokemonList))
        try await withStubServer(mappings: [bulbasaur, pikachu, list]) { server in
            let client = try PokemonClient(environment: server.environment)
            #expect(try await client.pokemon(id: 1) == Pokemon.bulbasaur)
            #expect(try await client.pokemon(id: 25) == Pokemon.pikachu)
            #expect(try await client.pokemonPage(offset: 0, limit: 20) == PagedList.samplePokemonList)
        }
    }

    @Test("routes build pokeapi.co's URLs on the configured server, and re-base its links")
    func routes() {
        do {
            let routes = PokeAPIRoutes(baseURL: URL(string: "http://127.0.0.1:8080")!)
            let url = routes.pokemonList(offset: 20, limit: 20)
            // http://127.0.0.1:8080/api/v2/pokemon/?offset=20&limit=20
            #expect(url.absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/?offset=20&limit=20")
        }
        do {
            let routes = PokeAPIRoutes(baseURL: URL(string: "http://127.0.0.1:8080")!)
            let url = routes.rebased(URL(string: "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20")!)
            // http://127.0.0.1:8080/api/v2/pokemon/?offset=20&limit=20
            #expect(url.absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/?offset=20&limit=20")
        }
    }

    /// Compiled, not run: it asks pokeapi.co, or whatever POKEMON_URL names.
    func clientOverview() async throws {
        let client = try PokemonClient()  // reads POKEMON_URL, else https://pokeapi.co
        let page = try await client.pokemonPage(offset: 0, limit: 20)
        let bulbasaur = try await client.pokemon(name: page.results[0].name)
        _ = bulbasaur
    }

    @Test("a resource link followed through the client")
    func resource() async throws {
        try await withStubServer(stubsDirectory: Repository.stubs) { server in
            let client = try PokemonClient(environment: server.environment)
            let pokemon = try await client.pokemon(id: 25)
            let species = try await client.resource(PokemonSpecies.self, at: pokemon.species.url)
            #expect(species.name == "pikachu")
        }
    }

    @Test("a configuration read from the environment, given or the process's")
    func configuration() throws {
        do {
            let configuration = try PokemonClientConfiguration()  // reads POKEMON_URL
            let client = PokemonClient(configuration: configuration)
            #expect(client.configuration == configuration)
        }
        do {
            let configuration = try PokemonClientConfiguration(
                environment: ["POKEMON_URL": "http://127.0.0.1:8080"])
            #expect(configuration.baseURL.absoluteString == "http://127.0.0.1:8080")
        }
    }

    @Test("code written against PokemonService takes any service")
    func service() async throws {
        func loadFirstPage(from service: any PokemonService) async throws(PokemonClientError) -> [String] {
            let page = try await service.pokemonPage(offset: 0, limit: 20)
            return page.results.map(\.name)
        }
        let service = InMemoryPokemonService(pokemon: [Pokemon.bulbasaur, Pokemon.pikachu])
        #expect(try await loadFirstPage(from: service) == ["bulbasaur", "pikachu"])
    }
}
