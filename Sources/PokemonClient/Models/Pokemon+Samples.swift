import Foundation

// Complete sample Pokémon for previews and stubs: every field as pokeapi.co answers it (the values of the
// shipped stubs' `pokemon/1.json` and `pokemon/25.json`), so encoding one gives a body `PokemonClient` decodes.

extension Pokemon {
    /// Bulbasaur (#1) as `GET /api/v2/pokemon/1/` answers: grass and poison, 0.7 m, 6.9 kg.
    ///
    /// ```swift
    /// let bulbasaur = try StubBuilder.get("/api/v2/pokemon/1/").willReturn(.json(encoding: Pokemon.bulbasaur))
    /// ```
    public static let bulbasaur = Pokemon(
        id: 1, name: "bulbasaur", baseExperience: 64, height: 7, weight: 69, order: 1, isDefault: true,
        types: [
            PokemonTypeSlot(slot: 1, type: .api("grass", "type/12")),
            PokemonTypeSlot(slot: 2, type: .api("poison", "type/4")),
        ],
        abilities: [
            PokemonAbility(ability: .api("overgrow", "ability/65"), isHidden: false, slot: 1),
            PokemonAbility(ability: .api("chlorophyll", "ability/34"), isHidden: true, slot: 3),
        ],
        stats: PokemonStat.samples(
            hp: 45, attack: 49, defense: 49, specialAttack: 65, specialDefense: 65, speed: 45,
            efforts: [0, 0, 0, 1, 0, 0]),
        sprites: PokemonSprites(
            frontDefault: URL(string: "https://raw.githubusercontent.com/PokeAPI/sprites/master/sprites/pokemon/1.png")),
        species: .api("bulbasaur", "pokemon-species/1"))

    /// Pikachu (#25) as `GET /api/v2/pokemon/25/` answers: electric, 0.4 m, 6.0 kg.
    ///
    /// ```swift
    /// let pikachu = try StubBuilder.get("/api/v2/pokemon/25/").willReturn(.json(encoding: Pokemon.pikachu))
    /// ```
    public static let pikachu = Pokemon(
        id: 25, name: "pikachu", baseExperience: 112, height: 4, weight: 60, order: 35, isDefault: true,
        types: [PokemonTypeSlot(slot: 1, type: .api("electric", "type/13"))],
        abilities: [
            PokemonAbility(ability: .api("static", "ability/9"), isHidden: false, slot: 1),
            PokemonAbility(ability: .api("lightning-rod", "ability/31"), isHidden: true, slot: 3),
        ],
        stats: PokemonStat.samples(
            hp: 35, attack: 55, defense: 40, specialAttack: 50, specialDefense: 50, speed: 90,
            efforts: [0, 0, 0, 0, 0, 2]),
        sprites: PokemonSprites(
            frontDefault: URL(string: "https://raw.githubusercontent.com/PokeAPI/sprites/master/sprites/pokemon/25.png")
        ),
        species: .api("pikachu", "pokemon-species/25"))

    /// The entry that names this Pokémon in a list page: its name and `https://pokeapi.co/api/v2/pokemon/{id}/`.
    public var listEntry: NamedAPIResource {
        .api(name, "pokemon/\(id)")
    }
}

extension NamedAPIResource {
    /// A resource on pokeapi.co, e.g. `.api("grass", "type/12")` for `https://pokeapi.co/api/v2/type/12/`.
    static func api(_ name: String, _ path: String) -> NamedAPIResource {
        NamedAPIResource(name: name, url: URL(string: "https://pokeapi.co/api/v2/\(path)/")!)
    }
}

extension PokemonStat {
    /// The six base stats in PokeAPI's order (hp, attack, defense, special-attack, special-defense, speed).
    static func samples(
        hp: Int, attack: Int, defense: Int, specialAttack: Int, specialDefense: Int, speed: Int, efforts: [Int]
    ) -> [PokemonStat] {
        let names = ["hp", "attack", "defense", "special-attack", "special-defense", "speed"]
        let values = [hp, attack, defense, specialAttack, specialDefense, speed]
        return names.indices.map { index in
            PokemonStat(baseStat: values[index], effort: efforts[index], stat: .api(names[index], "stat/\(index + 1)"))
        }
    }
}

extension PagedList where Item == NamedAPIResource {
    /// A one-page Pokémon list holding ``Pokemon/bulbasaur`` and ``Pokemon/pikachu``, shaped as
    /// `GET /api/v2/pokemon/` answers (`count` 2, no `next` or `previous`).
    ///
    /// ```swift
    /// let list = try StubBuilder.get("/api/v2/pokemon/").willReturn(.json(encoding: PagedList.samplePokemonList))
    /// ```
    public static var samplePokemonList: PagedList<NamedAPIResource> {
        PagedList(
            count: 2, next: nil, previous: nil, results: [Pokemon.bulbasaur.listEntry, Pokemon.pikachu.listEntry])
    }
}
