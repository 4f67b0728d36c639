import Foundation

/// One base stat of a Pokémon.
///
/// See [PokemonStat](https://pokeapi.co/docs/v2#pokemonstat) in the PokeAPI documentation.
public struct PokemonStat: Codable, Sendable, Hashable {
    /// The base value of the stat, such as 45 for Bulbasaur's hp.
    public var baseStat: Int
    /// The effort points (EVs) gained by defeating this Pokémon.
    public var effort: Int
    /// The stat, such as `hp` or `special-attack`.
    public var stat: NamedAPIResource

    /// Creates a stat entry.
    ///
    /// - Parameters:
    ///   - baseStat: The base value.
    ///   - effort: Effort points gained for defeating the Pokémon.
    ///   - stat: The stat.
    public init(baseStat: Int, effort: Int, stat: NamedAPIResource) {
        self.baseStat = baseStat
        self.effort = effort
        self.stat = stat
    }

    private enum CodingKeys: String, CodingKey {
        case baseStat = "base_stat"
        case effort
        case stat
    }
}
