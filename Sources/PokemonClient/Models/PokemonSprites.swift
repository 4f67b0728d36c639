import Foundation

/// Images of a Pokémon.
///
/// A subset of PokeAPI's [PokemonSprites](https://pokeapi.co/docs/v2#pokemonsprites): only the
/// default front image. The API sends `null` for images that do not exist, so it is optional.
public struct PokemonSprites: Codable, Sendable, Hashable {
    /// The default front image (a PNG), or `nil` when the API has none.
    public var frontDefault: URL?

    /// Creates a sprite set.
    ///
    /// - Parameter frontDefault: The default front image, or `nil`.
    public init(frontDefault: URL? = nil) {
        self.frontDefault = frontDefault
    }

    private enum CodingKeys: String, CodingKey {
        case frontDefault = "front_default"
    }
}
