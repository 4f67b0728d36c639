import Foundation

/// A Pokémon as returned by `GET /api/v2/pokemon/{id or name}/`.
///
/// A documented subset of PokeAPI's [Pokemon](https://pokeapi.co/docs/v2#pokemon) resource.
/// Fields not listed here (moves, game indices, cries, held items, ...) are ignored when decoding,
/// and so are any fields the API adds later.
public struct Pokemon: Codable, Sendable, Hashable, Identifiable {
    /// The Pokémon's identifier, such as 1 for Bulbasaur.
    public var id: Int
    /// The Pokémon's name, such as `bulbasaur`: lower-case, words joined by hyphens.
    public var name: String
    /// The experience gained for defeating this Pokémon, or `nil` where the API has no value.
    public var baseExperience: Int?
    /// The Pokémon's height in decimetres (7 means 0.7 m).
    public var height: Int
    /// The Pokémon's weight in hectograms (69 means 6.9 kg).
    public var weight: Int
    /// The sort order the API uses: mostly National Dex order, with forms next to their base Pokémon.
    public var order: Int
    /// Whether this is the default Pokémon of its species (each species has exactly one).
    public var isDefault: Bool
    /// The Pokémon's types, one per slot (slot 1 is the primary type).
    public var types: [PokemonTypeSlot]
    /// The abilities this Pokémon can have.
    public var abilities: [PokemonAbility]
    /// The Pokémon's base stats (hp, attack, defense, special-attack, special-defense, speed).
    public var stats: [PokemonStat]
    /// Images of the Pokémon.
    public var sprites: PokemonSprites
    /// The species this Pokémon belongs to; fetch it with ``PokemonService/species(name:)``.
    public var species: NamedAPIResource

    /// Creates a Pokémon from its fields, for previews and tests.
    ///
    /// - Parameters:
    ///   - id: The identifier, such as 1.
    ///   - name: The name, such as `bulbasaur`.
    ///   - baseExperience: Experience for defeating it, or `nil`.
    ///   - height: Height in decimetres.
    ///   - weight: Weight in hectograms.
    ///   - order: The API's sort order.
    ///   - isDefault: Whether this is its species' default Pokémon.
    ///   - types: Its types by slot.
    ///   - abilities: Its abilities.
    ///   - stats: Its base stats.
    ///   - sprites: Its images.
    ///   - species: Its species.
    public init(
        id: Int,
        name: String,
        baseExperience: Int? = nil,
        height: Int = 0,
        weight: Int = 0,
        order: Int = 0,
        isDefault: Bool = true,
        types: [PokemonTypeSlot] = [],
        abilities: [PokemonAbility] = [],
        stats: [PokemonStat] = [],
        sprites: PokemonSprites = PokemonSprites(),
        species: NamedAPIResource
    ) {
        self.id = id
        self.name = name
        self.baseExperience = baseExperience
        self.height = height
        self.weight = weight
        self.order = order
        self.isDefault = isDefault
        self.types = types
        self.abilities = abilities
        self.stats = stats
        self.sprites = sprites
        self.species = species
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case name
        case baseExperience = "base_experience"
        case height
        case weight
        case order
        case isDefault = "is_default"
        case types
        case abilities
        case stats
        case sprites
        case species
    }
}
