import Foundation

/// The PokeAPI operations an app needs, so views and view models can depend on an abstraction.
///
/// Two implementations ship with this module:
/// - ``PokemonClient`` talks HTTP to pokeapi.co, or to whatever server `POKEMON_URL` names
///   (a pokestub daemon in UI tests);
/// - ``InMemoryPokemonService`` answers from seeded values, for SwiftUI previews and view-model
///   unit tests.
///
/// Every method throws ``PokemonClientError``: the typed `throws(PokemonClientError)` lets a caller
/// switch over the cases without casting.
///
/// ```swift
/// func loadFirstPage(from service: any PokemonService) async throws(PokemonClientError) -> [String] {
///     let page = try await service.pokemonPage(offset: 0, limit: 20)
///     return page.results.map(\.name)
/// }
/// ```
public protocol PokemonService: Sendable {
    /// Fetches one page of the Pokémon list: `GET /api/v2/pokemon/?offset={offset}&limit={limit}`.
    ///
    /// Pagination follows pokeapi.co (https://pokeapi.co/docs/v2#resource-listspagination): the
    /// page holds the items from `offset` up to `offset + limit`, the total ``PagedList/count``,
    /// and `next`/`previous` links to the neighbouring pages.
    ///
    /// - Parameters:
    ///   - offset: How many Pokémon to skip, from 0.
    ///   - limit: How many Pokémon the page holds at most; PokeAPI's default is 20.
    /// - Returns: The page.
    /// - Throws: ``PokemonClientError``.
    func pokemonPage(offset: Int, limit: Int) async throws(PokemonClientError) -> PagedList<NamedAPIResource>

    /// Fetches the page after `page` by following its ``PagedList/next`` link.
    ///
    /// - Parameter page: A page previously returned by this service.
    /// - Returns: The following page, or `nil` when `page` is the last one.
    /// - Throws: ``PokemonClientError``.
    func page(after page: PagedList<NamedAPIResource>) async throws(PokemonClientError) -> PagedList<NamedAPIResource>?

    /// Fetches the page before `page` by following its ``PagedList/previous`` link.
    ///
    /// - Parameter page: A page previously returned by this service.
    /// - Returns: The preceding page, or `nil` when `page` is the first one.
    /// - Throws: ``PokemonClientError``.
    func page(before page: PagedList<NamedAPIResource>) async throws(PokemonClientError) -> PagedList<NamedAPIResource>?

    /// Fetches the whole Pokémon list, page by page, following `next` links to the end.
    ///
    /// A default implementation is provided in terms of ``pokemonPage(offset:limit:)`` and
    /// ``page(after:)``.
    ///
    /// - Parameter pageSize: How many Pokémon to ask for per request; at least 1.
    /// - Returns: Every entry, in the API's order.
    /// - Throws: ``PokemonClientError`` from any page; also
    ///   ``PokemonClientError/decoding(url:codingPath:reason:)`` at `next` when a `next` link
    ///   repeats an earlier one, since following it would never end.
    func allPokemon(pageSize: Int) async throws(PokemonClientError) -> [NamedAPIResource]

    /// Fetches a Pokémon by id: `GET /api/v2/pokemon/{id}/`.
    ///
    /// - Parameter id: The Pokémon's id, such as 25.
    /// - Returns: The Pokémon.
    /// - Throws: ``PokemonClientError``; ``PokemonClientError/httpStatus(url:status:bodyExcerpt:)``
    ///   with status 404 when there is no such Pokémon.
    func pokemon(id: Int) async throws(PokemonClientError) -> Pokemon

    /// Fetches a Pokémon by name: `GET /api/v2/pokemon/{name}/`.
    ///
    /// - Parameter name: The Pokémon's name, such as `pikachu`; matched case-insensitively.
    /// - Returns: The Pokémon.
    /// - Throws: ``PokemonClientError``; status 404 when there is no such Pokémon.
    func pokemon(name: String) async throws(PokemonClientError) -> Pokemon

    /// Fetches a species by id: `GET /api/v2/pokemon-species/{id}/`.
    ///
    /// - Parameter id: The species' id, such as 669.
    /// - Returns: The species.
    /// - Throws: ``PokemonClientError``; status 404 when there is no such species.
    func species(id: Int) async throws(PokemonClientError) -> PokemonSpecies

    /// Fetches a species by name: `GET /api/v2/pokemon-species/{name}/`.
    ///
    /// - Parameter name: The species' name, such as `flabebe`; matched case-insensitively.
    /// - Returns: The species.
    /// - Throws: ``PokemonClientError``; status 404 when there is no such species.
    func species(name: String) async throws(PokemonClientError) -> PokemonSpecies

    /// Fetches a type by id: `GET /api/v2/type/{id}/`.
    ///
    /// - Parameter id: The type's id, such as 1.
    /// - Returns: The type.
    /// - Throws: ``PokemonClientError``; status 404 when there is no such type.
    func type(id: Int) async throws(PokemonClientError) -> PokemonType

    /// Fetches a type by name: `GET /api/v2/type/{name}/`.
    ///
    /// - Parameter name: The type's name, such as `normal`; matched case-insensitively.
    /// - Returns: The type.
    /// - Throws: ``PokemonClientError``; status 404 when there is no such type.
    func type(name: String) async throws(PokemonClientError) -> PokemonType
}

extension PokemonService {
    /// Fetches the whole Pokémon list by walking `next` links from the first page.
    ///
    /// Requests `offset=0&limit={pageSize}`, then follows ``PagedList/next`` with
    /// ``page(after:)`` until a page has none. The PokeAPI list has over 1,300 entries, so a page
    /// size of 100 or more keeps the number of requests down.
    ///
    /// - Parameter pageSize: How many Pokémon to ask for per request; values below 1 are treated as 1.
    /// - Returns: Every entry, in the API's order.
    /// - Throws: ``PokemonClientError`` from any page, or
    ///   ``PokemonClientError/decoding(url:codingPath:reason:)`` at `next` when a `next` link
    ///   repeats an earlier one.
    public func allPokemon(pageSize: Int) async throws(PokemonClientError) -> [NamedAPIResource] {
        var page = try await pokemonPage(offset: 0, limit: max(1, pageSize))
        var all = page.results
        var followed: Set<URL> = []
        while let next = page.next {
            guard followed.insert(next).inserted else {
                throw .decoding(
                    url: next,
                    codingPath: "next",
                    reason: "the next link repeats an earlier page; stopped to avoid an endless walk"
                )
            }
            guard let following = try await self.page(after: page) else { break }
            all += following.results
            page = following
        }
        return all
    }
}
