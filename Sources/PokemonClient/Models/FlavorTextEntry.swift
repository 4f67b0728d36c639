import Foundation

/// Pokédex text in one language, from one game version.
///
/// See [FlavorText](https://pokeapi.co/docs/v2#flavortext) in the PokeAPI documentation.
public struct FlavorTextEntry: Codable, Sendable, Hashable {
    /// The text as the game prints it, with its line feeds and form feeds.
    public var flavorText: String
    /// The language, such as `en`.
    public var language: NamedAPIResource
    /// The game version the text comes from, such as `x`, or `nil` when the API gives none.
    public var version: NamedAPIResource?

    /// Creates a flavor text entry.
    ///
    /// - Parameters:
    ///   - flavorText: The text.
    ///   - language: The language it is written in.
    ///   - version: The game version, or `nil`.
    public init(flavorText: String, language: NamedAPIResource, version: NamedAPIResource? = nil) {
        self.flavorText = flavorText
        self.language = language
        self.version = version
    }

    private enum CodingKeys: String, CodingKey {
        case flavorText = "flavor_text"
        case language
        case version
    }
}
