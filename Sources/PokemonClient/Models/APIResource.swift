import Foundation

/// A reference to another PokeAPI resource by URL alone.
///
/// PokeAPI uses this shape for resources that have no name, such as evolution chains.
/// See [APIResource](https://pokeapi.co/docs/v2#apiresource) in the PokeAPI documentation.
public struct APIResource: Codable, Sendable, Hashable {
    /// Where the resource can be fetched, absolute or root-relative as the server wrote it.
    public var url: URL

    /// Creates a reference from its URL.
    ///
    /// - Parameter url: Where the resource can be fetched, such as
    ///   `https://pokeapi.co/api/v2/evolution-chain/1/`.
    public init(url: URL) {
        self.url = url
    }

    private enum CodingKeys: String, CodingKey {
        case url
    }
}
