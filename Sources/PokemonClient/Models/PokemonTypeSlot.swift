import Foundation

/// One of a Pokémon's types and the slot it occupies.
///
/// See [PokemonType](https://pokeapi.co/docs/v2#pokemontype) in the PokeAPI documentation
/// (this package names it `PokemonTypeSlot` because ``PokemonType`` is the type resource itself).
public struct PokemonTypeSlot: Codable, Sendable, Hashable {
    /// The slot, starting at 1 for the primary type.
    public var slot: Int
    /// The type in this slot, such as `grass`.
    public var type: NamedAPIResource

    /// Creates a type slot.
    ///
    /// - Parameters:
    ///   - slot: The slot, starting at 1.
    ///   - type: The type in this slot.
    public init(slot: Int, type: NamedAPIResource) {
        self.slot = slot
        self.type = type
    }

    private enum CodingKeys: String, CodingKey {
        case slot
        case type
    }
}
