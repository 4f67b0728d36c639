import Foundation
import PokemonClient
import Testing

@Suite("In-memory service")
struct InMemoryPokemonServiceTests {
    let service = InMemoryPokemonService(pokemon: PokeAPIFixtures.pokemon(count: 45))

    @Test func pagesFortyFiveItemsInThreePagesWithPokeAPILinks() async throws {
        let first = try await service.pokemonPage(offset: 0, limit: 20)
        #expect(first.count == 45)
        #expect(first.results.map(\.name) == (1...20).map { "pokemon-\($0)" })
        #expect(first.previous == nil)
        #expect(first.next?.absoluteString == "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20")

        let second = try #require(try await service.page(after: first))
        #expect(second.count == 45)
        #expect(second.results.map(\.name) == (21...40).map { "pokemon-\($0)" })
        #expect(second.previous?.absoluteString == "https://pokeapi.co/api/v2/pokemon/?offset=0&limit=20")
        // pokeapi.co sizes the next link to what remains: 5 items after offset 40.
        #expect(second.next?.absoluteString == "https://pokeapi.co/api/v2/pokemon/?offset=40&limit=5")

        let third = try #require(try await service.page(after: second))
        #expect(third.count == 45)
        #expect(third.results.map(\.name) == (41...45).map { "pokemon-\($0)" })
        #expect(third.previous?.absoluteString == "https://pokeapi.co/api/v2/pokemon/?offset=35&limit=5")
        #expect(third.next == nil)

        #expect(try await service.page(after: third) == nil)
    }

    @Test func lastPageRequestedDirectlyLinksBackAFullPage() async throws {
        let last = try await service.pokemonPage(offset: 40, limit: 20)
        #expect(last.results.count == 5)
        #expect(last.next == nil)
        #expect(last.previous?.absoluteString == "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20")
    }

    @Test func previousLinkOfAnUnalignedPageStartsAtZero() async throws {
        let page = try await service.pokemonPage(offset: 5, limit: 20)
        #expect(page.results.first?.name == "pokemon-6")
        #expect(page.previous?.absoluteString == "https://pokeapi.co/api/v2/pokemon/?offset=0&limit=5")
        let back = try #require(try await service.page(before: page))
        #expect(back.results.map(\.name) == (1...5).map { "pokemon-\($0)" })
        #expect(try await service.page(before: back) == nil)
    }

    @Test func listEntriesPointAtPokeAPIDetailURLs() async throws {
        let page = try await service.pokemonPage(offset: 0, limit: 1)
        #expect(
            page.results.first
                == NamedAPIResource(
                    name: "pokemon-1", url: URL(string: "https://pokeapi.co/api/v2/pokemon/1/")!))
        #expect(page.results.first?.id == 1)
    }

    @Test func offsetPastTheEndGivesAnEmptyPage() async throws {
        let page = try await service.pokemonPage(offset: 100, limit: 20)
        #expect(page.results.isEmpty)
        #expect(page.next == nil)
        #expect(page.previous?.absoluteString == "https://pokeapi.co/api/v2/pokemon/?offset=80&limit=20")
    }

    @Test func nonPositiveLimitUsesTheDefaultPageSize() async throws {
        let page = try await service.pokemonPage(offset: -3, limit: 0)
        #expect(page.results.count == 20)
        #expect(page.results.first?.name == "pokemon-1")
    }

    @Test func allPokemonCollectsEveryEntry() async throws {
        let all = try await service.allPokemon(pageSize: 20)
        #expect(all.map(\.name) == (1...45).map { "pokemon-\($0)" })
    }

    @Test func findsSeededValuesByIdAndNameIgnoringCase() async throws {
        let species = PokemonSpecies(
            id: 669, name: "flabebe",
            names: [LocalizedName(name: "Flabébé", language: PokeAPIFixtures.resource("en", "language", 9))],
            color: PokeAPIFixtures.resource("white", "pokemon-color", 9)
        )
        let normal = PokemonType(id: 1, name: "normal")
        let service = InMemoryPokemonService(
            pokemon: [PokeAPIFixtures.pokemon(id: 25, name: "pikachu")], species: [species], types: [normal])

        #expect(try await service.pokemon(id: 25).name == "pikachu")
        #expect(try await service.pokemon(name: "Pikachu").id == 25)
        #expect(try await service.species(id: 669) == species)
        #expect(try await service.species(name: "FLABEBE").name(in: "en") == "Flabébé")
        #expect(try await service.type(id: 1) == normal)
        #expect(try await service.type(name: "normal") == normal)
    }

    @Test func unknownIdThrowsNotFoundAtTheLiveURL() async throws {
        let error = try await #require(throws: PokemonClientError.self) {
            try await service.pokemon(id: 9999)
        }
        guard case .notInMemory(let url, let missing, let remedy) = error else {
            Issue.record("expected .notInMemory, got \(error)")
            return
        }
        #expect(url == URL(string: "https://pokeapi.co/api/v2/pokemon/9999/")!)
        #expect(missing == "Pokémon with id 9999")
        #expect(remedy.contains("InMemoryPokemonService(pokemon: [...]) or insert(_:)"))
        #expect(remedy.contains("It holds 45, from 1 pokemon-1 to 45 pokemon-45."), "\(remedy)")
        #expect(error.httpStatusCode == 404)
        #expect(
            error.description.hasPrefix(
                "InMemoryPokemonService holds no Pokémon with id 9999, so it answers 404 without a request "
                    + "(PokemonClient would ask https://pokeapi.co/api/v2/pokemon/9999/)."))
        #expect(!error.description.contains("HTTP 404 from"))

        let speciesError = try await #require(throws: PokemonClientError.self) {
            try await service.species(name: "flabébé")
        }
        guard case .notInMemory(let speciesURL, let speciesMissing, _) = speciesError else {
            Issue.record("expected .notInMemory, got \(speciesError)")
            return
        }
        #expect(speciesURL == URL(string: "https://pokeapi.co/api/v2/pokemon-species/flab%C3%A9b%C3%A9/")!)
        #expect(speciesMissing == "species with name \"flabébé\"")
        let typeError = try await #require(throws: PokemonClientError.self) { try await service.type(id: 99) }
        #expect(typeError.httpStatusCode == 404)
        #expect(typeError.description.contains("InMemoryPokemonService(types: [...])"))
        #expect(typeError.description.contains("It holds no type yet."))
    }

    @Test func insertedValuesAreServed() async throws {
        let service = InMemoryPokemonService()
        #expect(try await service.pokemonPage(offset: 0, limit: 20).count == 0)
        service.insert(PokeAPIFixtures.pokemon(id: 7, name: "squirtle"))
        let page = try await service.pokemonPage(offset: 0, limit: 20)
        #expect(page.results.map(\.name) == ["squirtle"])
        #expect(try await service.pokemon(name: "squirtle").id == 7)
    }

    @Test func simulatedFailureIsThrownUntilCleared() async throws {
        let offline = PokemonClientError.transport(
            url: URL(string: "https://pokeapi.co/api/v2/pokemon/1/")!, underlying: "offline")
        service.failRequests(with: offline)
        await #expect(throws: offline) { try await service.pokemon(id: 1) }
        await #expect(throws: offline) { try await service.pokemonPage(offset: 0, limit: 20) }
        service.failRequests(with: nil)
        #expect(try await service.pokemon(id: 1).name == "pokemon-1")
    }

    @Test func explicitListingAndBaseURLAreUsedForPagesAndLinks() async throws {
        let listing = (1...3).map { PokeAPIFixtures.resource("entry-\($0)", "pokemon", $0) }
        let service = InMemoryPokemonService(listing: listing, baseURL: URL(string: "http://127.0.0.1:8080/")!)
        let page = try await service.pokemonPage(offset: 0, limit: 2)
        #expect(page.count == 3)
        #expect(page.results == Array(listing.prefix(2)))
        #expect(page.next?.absoluteString == "http://127.0.0.1:8080/api/v2/pokemon/?offset=2&limit=1")
    }

    @Test func isUsableThroughTheProtocol() async throws {
        let any: any PokemonService = service
        let page = try await any.pokemonPage(offset: 0, limit: 20)
        #expect(try await any.page(after: page)?.results.count == 20)
    }
}
