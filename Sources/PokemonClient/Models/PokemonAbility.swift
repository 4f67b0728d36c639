import Foundation

/// One ability a Pokémon can have.
///
/// See [PokemonAbility](https://pokeapi.co/docs/v2#pokemonability) in the PokeAPI documentation.
public struct PokemonAbility: Codable, Sendable, Hashable {
    /// The ability, such as `overgrow`.
    public var ability: NamedAPIResource
    /// Whether this is a hidden ability, available only in special circumstances.
    public var isHidden: Bool
    /// The slot the ability occupies, starting at 1.
    public var slot: Int

    /// Creates an ability entry.
    ///
    /// - Parameters:
    ///   - ability: The ability.
    ///   - isHidden: Whether it is a hidden ability.
    ///   - slot: The slot, starting at 1.
    public init(ability: NamedAPIResource, isHidden: Bool, slot: Int) {
        self.ability = ability
        self.isHidden = isHidden
        self.slot = slot
    }

    private enum CodingKeys: String, CodingKey {
        case ability
        case isHidden = "is_hidden"
        case slot
    }
}
