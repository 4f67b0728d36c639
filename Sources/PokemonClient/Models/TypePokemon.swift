import Foundation

/// A Pokémon that has a given type, and the slot the type occupies on it.
///
/// See [TypePokemon](https://pokeapi.co/docs/v2#typepokemon) in the PokeAPI documentation.
public struct TypePokemon: Codable, Sendable, Hashable {
    /// The slot the type occupies on the Pokémon, starting at 1 for its primary type.
    public var slot: Int
    /// The Pokémon.
    public var pokemon: NamedAPIResource

    /// Creates an entry.
    ///
    /// - Parameters:
    ///   - slot: The slot, starting at 1.
    ///   - pokemon: The Pokémon.
    public init(slot: Int, pokemon: NamedAPIResource) {
        self.slot = slot
        self.pokemon = pokemon
    }

    private enum CodingKeys: String, CodingKey {
        case slot
        case pokemon
    }
}
