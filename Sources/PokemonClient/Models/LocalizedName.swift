import Foundation

/// A name in one language.
///
/// See [Name](https://pokeapi.co/docs/v2#name) in the PokeAPI documentation.
public struct LocalizedName: Codable, Sendable, Hashable {
    /// The name, such as `Flabébé`.
    public var name: String
    /// The language, such as `en`.
    public var language: NamedAPIResource

    /// Creates a localized name.
    ///
    /// - Parameters:
    ///   - name: The name.
    ///   - language: The language it is written in.
    public init(name: String, language: NamedAPIResource) {
        self.name = name
        self.language = language
    }

    private enum CodingKeys: String, CodingKey {
        case name
        case language
    }
}
