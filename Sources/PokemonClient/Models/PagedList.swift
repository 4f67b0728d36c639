import Foundation

/// One page of a PokeAPI list endpoint, such as `GET /api/v2/pokemon/?offset=0&limit=20`.
///
/// PokeAPI paginates every list endpoint by `offset` (how many items to skip) and `limit` (how many
/// to return, 20 by default). Each page carries the total ``count`` and links to the pages on either
/// side. See [Resource Lists/Pagination](https://pokeapi.co/docs/v2#resource-listspagination).
///
/// Follow ``next`` with ``PokemonService/page(after:)`` rather than by hand: the live client
/// re-bases the link onto its configured server (see ``PokeAPIRoutes/rebased(_:)``).
public struct PagedList<Item: Codable & Sendable>: Codable, Sendable {
    /// The total number of items the endpoint holds, across all pages.
    public var count: Int
    /// The URL of the following page, or `nil` on the last page.
    public var next: URL?
    /// The URL of the preceding page, or `nil` on the first page.
    public var previous: URL?
    /// The items on this page, in the API's order.
    public var results: [Item]

    /// Creates a page from its parts.
    ///
    /// - Parameters:
    ///   - count: The total number of items across all pages.
    ///   - next: The URL of the following page, or `nil` on the last page.
    ///   - previous: The URL of the preceding page, or `nil` on the first page.
    ///   - results: The items on this page.
    public init(count: Int, next: URL?, previous: URL?, results: [Item]) {
        self.count = count
        self.next = next
        self.previous = previous
        self.results = results
    }

    private enum CodingKeys: String, CodingKey {
        case count
        case next
        case previous
        case results
    }
}

extension PagedList: Equatable where Item: Equatable {}

extension PagedList: Hashable where Item: Hashable {}
