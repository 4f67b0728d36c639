import Foundation
import PokemonClient
import Testing

/// Decodes real PokeAPI bodies from the shared offline dump (`../shared/pokeapi`).
@Suite("Decoding real PokeAPI bodies")
struct ModelDecodingTests {
    @Test func decodesBulbasaur() throws {
        let pokemon = try PokeAPIFixtures.decode(Pokemon.self, at: "/api/v2/pokemon/1/")

        #expect(pokemon.id == 1)
        #expect(pokemon.name == "bulbasaur")
        #expect(pokemon.baseExperience == 64)
        #expect(pokemon.height == 7)
        #expect(pokemon.weight == 69)
        #expect(pokemon.order == 1)
        #expect(pokemon.isDefault)
        #expect(pokemon.types.map(\.slot) == [1, 2])
        #expect(pokemon.types.map(\.type.name) == ["grass", "poison"])
        #expect(pokemon.types.first?.type.url.absoluteString == "/api/v2/type/12/")
        #expect(pokemon.abilities.map(\.ability.name) == ["overgrow", "chlorophyll"])
        #expect(pokemon.abilities.map(\.isHidden) == [false, true])
        #expect(pokemon.abilities.map(\.slot) == [1, 3])
        #expect(
            pokemon.stats.map(\.stat.name) == [
                "hp", "attack", "defense", "special-attack", "special-defense", "speed",
            ])
        #expect(pokemon.stats.map(\.baseStat) == [45, 49, 49, 65, 65, 45])
        #expect(pokemon.stats.map(\.effort) == [0, 0, 0, 1, 0, 0])
        #expect(
            pokemon.sprites.frontDefault?.absoluteString
                == "https://raw.githubusercontent.com/PokeAPI/sprites/master/sprites/pokemon/1.png"
        )
        #expect(pokemon.species.name == "bulbasaur")
        #expect(pokemon.species.id == 1)
    }

    @Test func decodesFlabebeSpeciesWithAccentedNames() throws {
        let species = try PokeAPIFixtures.decode(PokemonSpecies.self, at: "/api/v2/pokemon-species/669/")

        #expect(species.id == 669)
        #expect(species.name == "flabebe")
        #expect(species.names.map(\.name).contains("Flabébé"))
        #expect(species.name(in: "en") == "Flabébé")
        #expect(species.name(in: "ja-roma") == "Flabebe")
        #expect(species.genera.first { $0.language.name == "en" }?.genus == "Single Bloom Pokémon")
        #expect(species.flavorTextEntries.count == 58)
        #expect(species.flavorTextEntries.first?.version?.name == "x")
        #expect(species.evolutionChain?.url.absoluteString == "/api/v2/evolution-chain/344/")
        #expect(species.color.name == "white")
        #expect(species.habitat == nil)
        #expect(!species.isLegendary)
        #expect(!species.isMythical)
        #expect(species.captureRate == 225)
        #expect(species.genderRate == 8)
    }

    @Test func decodesNormalTypeAndItsDamageRelations() throws {
        let type = try PokeAPIFixtures.decode(PokemonType.self, at: "/api/v2/type/1/")

        #expect(type.id == 1)
        #expect(type.name == "normal")
        #expect(type.pokemon.count == 160)
        #expect(type.pokemon.first?.pokemon.name == "pidgey")
        #expect(type.pokemon.first?.slot == 1)
        let relations = type.damageRelations
        #expect(relations.doubleDamageFrom.map(\.name) == ["fighting"])
        #expect(relations.doubleDamageTo.isEmpty)
        #expect(relations.halfDamageFrom.isEmpty)
        #expect(relations.halfDamageTo.map(\.name) == ["rock", "steel"])
        #expect(relations.noDamageFrom.map(\.name) == ["ghost"])
        #expect(relations.noDamageTo.map(\.name) == ["ghost"])
    }

    @Test func decodesThePokemonList() throws {
        let list = try PokeAPIFixtures.decode(PagedList<NamedAPIResource>.self, at: "/api/v2/pokemon/")

        #expect(list.count == 1351)
        #expect(list.next == nil)
        #expect(list.previous == nil)
        #expect(list.results.count == 1351)
        #expect(list.results.first == NamedAPIResource(name: "bulbasaur", url: URL(string: "/api/v2/pokemon/1/")!))
        #expect(list.results.first?.id == 1)
    }

    @Test func decodesAbsoluteLinksAsTheLiveAPIWritesThem() throws {
        let json = Data(
            """
            {"count": 1351, "next": "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20",
             "previous": null,
             "results": [{"name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"}]}
            """.utf8)
        let list = try JSONDecoder().decode(PagedList<NamedAPIResource>.self, from: json)
        #expect(list.next?.absoluteString == "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20")
        #expect(list.results.first?.url.host == "pokeapi.co")
        #expect(list.results.first?.id == 1)
    }

    @Test func ignoresUnknownFieldsAndAcceptsNullOptionals() throws {
        let json = Data(
            """
            {"id": 9999, "name": "missingno", "base_experience": null, "height": 30, "weight": 100,
             "order": -1, "is_default": true, "types": [], "abilities": [], "stats": [],
             "sprites": {"front_default": null, "brand_new_field": 1},
             "species": {"name": "missingno", "url": "/api/v2/pokemon-species/9999/"},
             "field_added_in_2030": {"nested": [1, 2, 3]}}
            """.utf8)
        let pokemon = try JSONDecoder().decode(Pokemon.self, from: json)
        #expect(pokemon.baseExperience == nil)
        #expect(pokemon.sprites.frontDefault == nil)
        #expect(pokemon.order == -1)
    }

    @Test func encodesWithPokeAPIKeyNamesAndRoundTrips() throws {
        let pokemon = try PokeAPIFixtures.decode(Pokemon.self, at: "/api/v2/pokemon/1/")
        let encoded = try JSONEncoder().encode(pokemon)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains("\"base_experience\""))
        #expect(text.contains("\"is_default\""))
        #expect(text.contains("\"front_default\""))
        #expect(!text.contains("baseExperience"))
        #expect(try JSONDecoder().decode(Pokemon.self, from: encoded) == pokemon)
    }
}
