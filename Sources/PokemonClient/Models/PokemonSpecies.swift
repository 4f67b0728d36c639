import Foundation

/// A Pokémon species as returned by `GET /api/v2/pokemon-species/{id or name}/`.
///
/// A species groups the Pokémon (forms) that share a Pokédex entry: its localized names, genus,
/// flavor text and evolution chain live here rather than on ``Pokemon``.
/// A documented subset of PokeAPI's [PokemonSpecies](https://pokeapi.co/docs/v2#pokemonspecies)
/// resource; other fields are ignored when decoding.
public struct PokemonSpecies: Codable, Sendable, Hashable, Identifiable {
    /// The species' identifier, such as 669 for Flabébé.
    public var id: Int
    /// The species' API name, such as `flabebe` (ASCII; see ``names`` for display names).
    public var name: String
    /// The species' name in each language, such as `Flabébé` in English.
    public var names: [LocalizedName]
    /// The species' genus ("Single Bloom Pokémon") in each language.
    public var genera: [Genus]
    /// Pokédex text for the species, one entry per language and game version.
    ///
    /// The text is as the games print it: it may contain line feeds, form feeds (`\u{0C}`) and
    /// soft hyphens; clean it before display.
    public var flavorTextEntries: [FlavorTextEntry]
    /// The evolution chain the species belongs to, or `nil` where the API has none.
    public var evolutionChain: APIResource?
    /// The species' Pokédex colour, such as `white`.
    public var color: NamedAPIResource
    /// Where the species lives, or `nil` (the API has no habitat for species after generation 3).
    public var habitat: NamedAPIResource?
    /// Whether the species is legendary.
    public var isLegendary: Bool
    /// Whether the species is mythical.
    public var isMythical: Bool
    /// How easy the species is to catch, from 0 to 255 (higher is easier).
    public var captureRate: Int
    /// The chance of being female, in eighths: 0 is always male, 8 always female, -1 genderless.
    public var genderRate: Int

    /// Creates a species from its fields, for previews and tests.
    ///
    /// - Parameters:
    ///   - id: The identifier, such as 669.
    ///   - name: The API name, such as `flabebe`.
    ///   - names: Localized names.
    ///   - genera: Localized genera.
    ///   - flavorTextEntries: Pokédex text entries.
    ///   - evolutionChain: The evolution chain, or `nil`.
    ///   - color: The Pokédex colour.
    ///   - habitat: The habitat, or `nil`.
    ///   - isLegendary: Whether it is legendary.
    ///   - isMythical: Whether it is mythical.
    ///   - captureRate: Capture rate from 0 to 255.
    ///   - genderRate: Chance of being female in eighths, or -1 for genderless.
    public init(
        id: Int,
        name: String,
        names: [LocalizedName] = [],
        genera: [Genus] = [],
        flavorTextEntries: [FlavorTextEntry] = [],
        evolutionChain: APIResource? = nil,
        color: NamedAPIResource,
        habitat: NamedAPIResource? = nil,
        isLegendary: Bool = false,
        isMythical: Bool = false,
        captureRate: Int = 45,
        genderRate: Int = 4
    ) {
        self.id = id
        self.name = name
        self.names = names
        self.genera = genera
        self.flavorTextEntries = flavorTextEntries
        self.evolutionChain = evolutionChain
        self.color = color
        self.habitat = habitat
        self.isLegendary = isLegendary
        self.isMythical = isMythical
        self.captureRate = captureRate
        self.genderRate = genderRate
    }

    /// The species' display name in a language, or `nil` when the API has none for it.
    ///
    /// - Parameter language: A PokeAPI language name, such as `en`, `fr` or `ja-hrkt`.
    /// - Returns: The first name whose language matches, such as `Flabébé` for `en`.
    public func name(in language: String) -> String? {
        names.first { $0.language.name == language }?.name
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case name
        case names
        case genera
        case flavorTextEntries = "flavor_text_entries"
        case evolutionChain = "evolution_chain"
        case color
        case habitat
        case isLegendary = "is_legendary"
        case isMythical = "is_mythical"
        case captureRate = "capture_rate"
        case genderRate = "gender_rate"
    }
}
