import Foundation

/// A species' genus in one language, such as "Seed Pokémon".
///
/// See [Genus](https://pokeapi.co/docs/v2#genus) in the PokeAPI documentation.
public struct Genus: Codable, Sendable, Hashable {
    /// The genus, such as `Single Bloom Pokémon`.
    public var genus: String
    /// The language, such as `en`.
    public var language: NamedAPIResource

    /// Creates a localized genus.
    ///
    /// - Parameters:
    ///   - genus: The genus.
    ///   - language: The language it is written in.
    public init(genus: String, language: NamedAPIResource) {
        self.genus = genus
        self.language = language
    }

    private enum CodingKeys: String, CodingKey {
        case genus
        case language
    }
}
