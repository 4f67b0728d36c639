import Foundation
import PokemonClient

/// Real PokeAPI bodies from the shared offline dump, and factories for model values.
enum PokeAPIFixtures {
    /// `/work/shared/pokeapi` in this checkout: the repository root is three levels above this
    /// file (`Tests/PokemonClientTests/PokeAPIFixtures.swift`), and the dump sits beside the repository.
    /// Symlinks are resolved first so the path also holds when the tests are built from a
    /// throwaway package that links to this folder.
    static let pokeapiRoot: URL = URL(fileURLWithPath: #filePath)
        .resolvingSymlinksInPath()
        .deletingLastPathComponent()  // PokemonClientTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // repository root
        .appendingPathComponent("../shared/pokeapi", isDirectory: true)
        .standardizedFileURL

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
