import Foundation

/// How a type deals and takes damage against other types.
///
/// See [TypeRelations](https://pokeapi.co/docs/v2#typerelations) in the PokeAPI documentation.
/// "From" lists are about moves hitting a Pokémon of this type; "to" lists are about moves of this
/// type hitting others.
public struct TypeDamageRelations: Codable, Sendable, Hashable {
    /// Types whose moves do double damage to this type.
    public var doubleDamageFrom: [NamedAPIResource]
    /// Types this type's moves do double damage to.
    public var doubleDamageTo: [NamedAPIResource]
    /// Types whose moves do half damage to this type.
    public var halfDamageFrom: [NamedAPIResource]
    /// Types this type's moves do half damage to.
    public var halfDamageTo: [NamedAPIResource]
    /// Types whose moves do no damage to this type.
    public var noDamageFrom: [NamedAPIResource]
    /// Types this type's moves do no damage to.
    public var noDamageTo: [NamedAPIResource]

    /// Creates damage relations; every list defaults to empty.
    ///
    /// - Parameters:
    ///   - doubleDamageFrom: Types doing double damage to this type.
    ///   - doubleDamageTo: Types this type does double damage to.
    ///   - halfDamageFrom: Types doing half damage to this type.
    ///   - halfDamageTo: Types this type does half damage to.
    ///   - noDamageFrom: Types doing no damage to this type.
    ///   - noDamageTo: Types this type does no damage to.
    public init(
        doubleDamageFrom: [NamedAPIResource] = [],
        doubleDamageTo: [NamedAPIResource] = [],
        halfDamageFrom: [NamedAPIResource] = [],
        halfDamageTo: [NamedAPIResource] = [],
        noDamageFrom: [NamedAPIResource] = [],
        noDamageTo: [NamedAPIResource] = []
    ) {
        self.doubleDamageFrom = doubleDamageFrom
        self.doubleDamageTo = doubleDamageTo
        self.halfDamageFrom = halfDamageFrom
        self.halfDamageTo = halfDamageTo
        self.noDamageFrom = noDamageFrom
        self.noDamageTo = noDamageTo
    }

    private enum CodingKeys: String, CodingKey {
        case doubleDamageFrom = "double_damage_from"
        case doubleDamageTo = "double_damage_to"
        case halfDamageFrom = "half_damage_from"
        case halfDamageTo = "half_damage_to"
        case noDamageFrom = "no_damage_from"
        case noDamageTo = "no_damage_to"
    }
}
