import Foundation

/// A Pokémon type as returned by `GET /api/v2/type/{id or name}/`.
///
/// A documented subset of PokeAPI's [Type](https://pokeapi.co/docs/v2#types) resource: the
/// Pokémon that have the type and how it fares against other types. Other fields (moves, names,
/// game indices, past damage relations, ...) are ignored when decoding.
public struct PokemonType: Codable, Sendable, Hashable, Identifiable {
    /// The type's identifier, such as 1 for `normal`.
    public var id: Int
    /// The type's name, such as `normal`.
    public var name: String
    /// The Pokémon that have this type, with the slot it occupies on each.
    public var pokemon: [TypePokemon]
    /// How this type deals and takes damage against other types.
    public var damageRelations: TypeDamageRelations

    /// Creates a type from its fields, for previews and tests.
    ///
    /// - Parameters:
    ///   - id: The identifier, such as 1.
    ///   - name: The name, such as `normal`.
    ///   - pokemon: The Pokémon that have the type.
    ///   - damageRelations: How it fares against other types.
    public init(
        id: Int,
        name: String,
        pokemon: [TypePokemon] = [],
        damageRelations: TypeDamageRelations = TypeDamageRelations()
    ) {
        self.id = id
        self.name = name
        self.pokemon = pokemon
        self.damageRelations = damageRelations
    }

    private enum CodingKeys: String, CodingKey {
        case id
        case name
        case pokemon
        case damageRelations = "damage_relations"
    }
}
