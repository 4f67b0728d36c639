import Foundation
import PokemonClient
import PokestubTestSupport

/// Real PokeAPI bodies from the shared offline dump, and factories for model values.
enum PokeAPIFixtures {
    /// The shared offline dump, `../shared/pokeapi` beside the repository.
    static var pokeapiRoot: URL { URL(fileURLWithPath: Repository.pokeAPIDump, isDirectory: true) }

    /// The body pokeapi.co serves at `path`, such as `/api/v2/pokemon/1/`.
    static func body(at path: String) throws -> Data {
        let relative = path.split(separator: "/").joined(separator: "/")
        let file =
            pokeapiRoot
            .appendingPathComponent(relative, isDirectory: true)
            .appendingPathComponent("index.json")
        return try Data(contentsOf: file)
    }

    /// A decoded body from the dump.
    static func decode<Value: Decodable>(_ type: Value.Type, at path: String) throws -> Value {
        try JSONDecoder().decode(type, from: body(at: path))
    }

    static func resource(_ name: String, _ endpoint: String, _ id: Int) -> NamedAPIResource {
        NamedAPIResource(name: name, url: URL(string: "https://pokeapi.co/api/v2/\(endpoint)/\(id)/")!)
    }

    /// A Pokémon with only the fields a list or detail screen usually shows.
    static func pokemon(id: Int, name: String? = nil) -> Pokemon {
        let name = name ?? "pokemon-\(id)"
        return Pokemon(
            id: id,
            name: name,
            baseExperience: 64,
            height: 7,
            weight: 69,
            order: id,
            types: [PokemonTypeSlot(slot: 1, type: resource("grass", "type", 12))],
            species: resource(name, "pokemon-species", id)
        )
    }

    /// `count` Pokémon with ids 1...count.
    static func pokemon(count: Int) -> [Pokemon] {
        (1...count).map { pokemon(id: $0) }
    }
}
