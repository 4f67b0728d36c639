import Foundation

/// A reference to another PokeAPI resource by name and URL.
///
/// PokeAPI uses this shape wherever one resource points at another: the entries of a list
/// endpoint, a Pokémon's species, a type slot's type, a localized name's language, and so on.
/// See [NamedAPIResource](https://pokeapi.co/docs/v2#namedapiresource) in the PokeAPI documentation.
///
/// The live API writes absolute URLs (`https://pokeapi.co/api/v2/pokemon/1/`); the static
/// data dump that pokestub replays writes root-relative ones (`/api/v2/pokemon/1/`). Both decode.
/// Pass either to ``PokeAPIRoutes/rebased(_:)`` before requesting it, so that a client configured
/// for a stub server stays on that server.
public struct NamedAPIResource: Codable, Sendable, Hashable {
    /// The resource's name, such as `bulbasaur`: lower-case, words joined by hyphens.
    public var name: String
    /// Where the resource can be fetched, absolute or root-relative as the server wrote it.
    public var url: URL

    /// Creates a reference from its name and URL.
    ///
    /// - Parameters:
    ///   - name: The resource's name, such as `bulbasaur`.
    ///   - url: Where the resource can be fetched, such as `https://pokeapi.co/api/v2/pokemon/1/`.
    public init(name: String, url: URL) {
        self.name = name
        self.url = url
    }

    /// The numeric id at the end of ``url``, or `nil` when the last path component is not a number.
    ///
    /// PokeAPI resource URLs end in the resource's id followed by a slash
    /// (`/api/v2/pokemon/25/` has id 25), so a list entry can be turned into a detail request
    /// without fetching the URL first.
    public var id: Int? {
        Int(url.lastPathComponent)
    }

    private enum CodingKeys: String, CodingKey {
        case name
        case url
    }
}
