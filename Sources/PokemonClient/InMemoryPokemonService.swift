import Foundation
import PokestubLocking

/// A ``PokemonService`` that answers from values held in memory, for SwiftUI previews and
/// view-model unit tests.
///
/// Seed it with the Pokémon, species and types a screen needs. It pages, links and fails the way
/// pokeapi.co does, so code written against it behaves the same against ``PokemonClient``:
/// - the list is the seeded Pokémon in id order (or an explicit `listing`), with entry URLs and
///   `next`/`previous` links on `https://pokeapi.co` (or the given `baseURL`), built by the rule
///   below;
/// - an unknown id or name throws ``PokemonClientError/notInMemory(url:missing:remedy:)`` (its
///   ``PokemonClientError/httpStatusCode`` is 404, as pokeapi.co answers), naming what was missing, the
///   URL the live client would have requested, and what to seed.
///
/// ```swift
/// let service = InMemoryPokemonService(pokemon: [Pokemon(id: 1, name: "bulbasaur", species: speciesLink)])
/// let model = PokedexModel(service: service)
/// ```
///
/// ## Pagination rule
/// pokeapi.co's list pages come from its deployment's request handler
/// (`getNextPage`/`getPreviousPage` in https://github.com/PokeAPI/deploy, `functions/src/index.ts`),
/// reproduced here:
/// - `offset` defaults to 0 and `limit` to 20; results are the items from `offset` up to
///   `offset + limit`;
/// - `next` is `?offset={offset+limit}&limit={n}` where `n` is how many items remain for that page,
///   capped at `limit` (so on 45 items with limit 20, page 2's `next` is `?offset=40&limit=5`);
///   there is no `next` when nothing follows;
/// - `previous` is `?offset={max(0, offset-limit)}&limit={offset - that}`; there is none at offset 0.
///
/// Unlike pokeapi.co, a negative `offset` is treated as 0 and a `limit` below 1 as 20, rather than
/// producing odd slices.
///
/// All state sits behind a lock (`Locked`), so the service is `Sendable` and may be changed from tests
/// while views read it.
public final class InMemoryPokemonService: PokemonService {
    /// pokeapi.co's default page size, used when a request's `limit` is missing or below 1: 20.
    public static let defaultPageSize = 20

    private struct State {
        var pokemon: [Int: Pokemon]
        var species: [Int: PokemonSpecies]
        var types: [Int: PokemonType]
        var listing: [NamedAPIResource]?
        var failure: PokemonClientError?
    }

    /// The URL builder for the links and error URLs this service produces.
    public let routes: PokeAPIRoutes

    private let state: Locked<State>

    /// Creates a service holding the given values.
    ///
    /// - Parameters:
    ///   - pokemon: The Pokémon it knows; later entries replace earlier ones with the same id.
    ///   - species: The species it knows.
    ///   - types: The types it knows.
    ///   - listing: The entries of the Pokémon list, if they should differ from `pokemon` (for
    ///     example, 1,000 list entries for a scrolling preview without 1,000 full Pokémon). When
    ///     `nil`, the list is built from `pokemon` in id order.
    ///   - baseURL: The server the produced links point at; `https://pokeapi.co` by default, as in
    ///     recorded bodies.
    public init(
        pokemon: [Pokemon] = [],
        species: [PokemonSpecies] = [],
        types: [PokemonType] = [],
        listing: [NamedAPIResource]? = nil,
        baseURL: URL = PokemonClientConfiguration.defaultBaseURL
    ) {
        self.routes = PokeAPIRoutes(baseURL: PokemonClientConfiguration(baseURL: baseURL).baseURL)
        self.state = Locked(
            State(
                pokemon: Dictionary(pokemon.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last }),
                species: Dictionary(species.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last }),
                types: Dictionary(types.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last }),
                listing: listing,
                failure: nil
            )
        )
    }

    // MARK: - Changing the data

    /// Adds a Pokémon, replacing any with the same id.
    ///
    /// - Parameter pokemon: The Pokémon to add.
    public func insert(_ pokemon: Pokemon) {
        state.withLock { $0.pokemon[pokemon.id] = pokemon }
    }

    /// Adds a species, replacing any with the same id.
    ///
    /// - Parameter species: The species to add.
    public func insert(_ species: PokemonSpecies) {
        state.withLock { $0.species[species.id] = species }
    }

    /// Adds a type, replacing any with the same id.
    ///
    /// - Parameter type: The type to add.
    public func insert(_ type: PokemonType) {
        state.withLock { $0.types[type.id] = type }
    }

    /// Makes every request fail with `error` until called again with `nil`, to show error states.
    ///
    /// - Parameter error: The error to throw, such as
    ///   `.transport(url: url, underlying: "offline")`, or `nil` to answer normally again.
    public func failRequests(with error: PokemonClientError?) {
        state.withLock { $0.failure = error }
    }

    // MARK: - PokemonService

    /// Returns one page of the Pokémon list, paginated by pokeapi.co's rule (see the type's discussion).
    ///
    /// - Parameters:
    ///   - offset: How many entries to skip; negative values count as 0.
    ///   - limit: How many entries the page holds at most; values below 1 count as 20.
    /// - Returns: The page, with `next`/`previous` links of the form
    ///   `https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20`.
    /// - Throws: The error set with ``failRequests(with:)``, if any.
    public func pokemonPage(offset: Int, limit: Int) async throws(PokemonClientError) -> PagedList<NamedAPIResource> {
        let routes = self.routes
        let (listing, failure) = state.withLock { state in
            (Self.listing(of: state, routes: routes), state.failure)
        }
        if let failure { throw failure }
        return makePage(of: listing, offset: offset, limit: limit)
    }

    /// Returns the page `page.next` links to.
    ///
    /// - Parameter page: A page previously returned by this service.
    /// - Returns: The following page, or `nil` when `page.next` is `nil`.
    /// - Throws: The error set with ``failRequests(with:)``; a 404
    ///   ``PokemonClientError/notInMemory(url:missing:remedy:)`` when the link is not a Pokémon
    ///   list URL.
    public func page(
        after page: PagedList<NamedAPIResource>
    ) async throws(PokemonClientError) -> PagedList<NamedAPIResource>? {
        guard let next = page.next else { return nil }
        return try await follow(next)
    }

    /// Returns the page `page.previous` links to.
    ///
    /// - Parameter page: A page previously returned by this service.
    /// - Returns: The preceding page, or `nil` when `page.previous` is `nil`.
    /// - Throws: The error set with ``failRequests(with:)``; a 404 when the link is not a Pokémon
    ///   list URL.
    public func page(
        before page: PagedList<NamedAPIResource>
    ) async throws(PokemonClientError) -> PagedList<NamedAPIResource>? {
        guard let previous = page.previous else { return nil }
        return try await follow(previous)
    }

    /// Returns a seeded Pokémon by id.
    ///
    /// - Parameter id: The Pokémon's id.
    /// - Returns: The Pokémon.
    /// - Throws: ``PokemonClientError/notInMemory(url:missing:remedy:)`` for an id that was not
    ///   seeded; the error set with ``failRequests(with:)``, if any.
    public func pokemon(id: Int) async throws(PokemonClientError) -> Pokemon {
        try lookUp(routes.pokemon(id: id), .pokemon, "id \(id)") { $0.pokemon[id] }
    }

    /// Returns a seeded Pokémon by name, case-insensitively.
    ///
    /// - Parameter name: The Pokémon's name.
    /// - Returns: The Pokémon.
    /// - Throws: ``PokemonClientError/notInMemory(url:missing:remedy:)`` for a name that was not seeded; the error set with ``failRequests(with:)``.
    public func pokemon(name: String) async throws(PokemonClientError) -> Pokemon {
        let wanted = name.lowercased()
        return try lookUp(routes.pokemon(name: name), .pokemon, "name \"\(name)\"") { state in
            state.pokemon.values.first { $0.name.lowercased() == wanted }
        }
    }

    /// Returns a seeded species by id.
    ///
    /// - Parameter id: The species' id.
    /// - Returns: The species.
    /// - Throws: ``PokemonClientError/notInMemory(url:missing:remedy:)`` for an id that was not seeded; the error set with ``failRequests(with:)``.
    public func species(id: Int) async throws(PokemonClientError) -> PokemonSpecies {
        try lookUp(routes.species(id: id), .species, "id \(id)") { $0.species[id] }
    }

    /// Returns a seeded species by name, case-insensitively.
    ///
    /// - Parameter name: The species' name.
    /// - Returns: The species.
    /// - Throws: ``PokemonClientError/notInMemory(url:missing:remedy:)`` for a name that was not seeded; the error set with ``failRequests(with:)``.
    public func species(name: String) async throws(PokemonClientError) -> PokemonSpecies {
        let wanted = name.lowercased()
        return try lookUp(routes.species(name: name), .species, "name \"\(name)\"") { state in
            state.species.values.first { $0.name.lowercased() == wanted }
        }
    }

    /// Returns a seeded type by id.
    ///
    /// - Parameter id: The type's id.
    /// - Returns: The type.
    /// - Throws: ``PokemonClientError/notInMemory(url:missing:remedy:)`` for an id that was not seeded; the error set with ``failRequests(with:)``.
    public func type(id: Int) async throws(PokemonClientError) -> PokemonType {
        try lookUp(routes.type(id: id), .type, "id \(id)") { $0.types[id] }
    }

    /// Returns a seeded type by name, case-insensitively.
    ///
    /// - Parameter name: The type's name.
    /// - Returns: The type.
    /// - Throws: ``PokemonClientError/notInMemory(url:missing:remedy:)`` for a name that was not seeded; the error set with ``failRequests(with:)``.
    public func type(name: String) async throws(PokemonClientError) -> PokemonType {
        let wanted = name.lowercased()
        return try lookUp(routes.type(name: name), .type, "name \"\(name)\"") { state in
            state.types.values.first { $0.name.lowercased() == wanted }
        }
    }

    // MARK: - Internals

    /// The kinds of value the service holds, for the miss message.
    private enum Kind {
        case pokemon, species, type

        var noun: String {
            switch self {
            case .pokemon: "Pokémon"
            case .species: "species"
            case .type: "type"
            }
        }

        /// The initializer argument and the `insert(_:)` that seed this kind.
        var seeding: String {
            switch self {
            case .pokemon:
                "InMemoryPokemonService(pokemon: [...]) or insert(_:) with a Pokemon (Pokemon.pikachu is one)"
            case .species: "InMemoryPokemonService(species: [...]) or insert(_:) with a PokemonSpecies"
            case .type: "InMemoryPokemonService(types: [...]) or insert(_:) with a PokemonType"
            }
        }

        func held(in state: State) -> [String] {
            switch self {
            case .pokemon: state.pokemon.values.sorted { $0.id < $1.id }.map { "\($0.id) \($0.name)" }
            case .species: state.species.values.sorted { $0.id < $1.id }.map { "\($0.id) \($0.name)" }
            case .type: state.types.values.sorted { $0.id < $1.id }.map { "\($0.id) \($0.name)" }
            }
        }
    }

    private func lookUp<Value>(
        _ url: URL, _ kind: Kind, _ key: String,
        _ find: (State) -> Value?
    ) throws(PokemonClientError) -> Value {
        let (value, failure, held) = state.withLock { state in
            let value = find(state)
            return (value, state.failure, value == nil ? kind.held(in: state) : [])
        }
        if let failure { throw failure }
        guard let value else {
            throw .notInMemory(url: url, missing: "\(kind.noun) with \(key)", remedy: Self.remedy(kind, held: held))
        }
        return value
    }

    private static func remedy(_ kind: Kind, held: [String]) -> String {
        let holding: String
        switch held.count {
        case 0: holding = "It holds no \(kind.noun) yet."
        case 1...10: holding = "It holds: \(held.joined(separator: ", "))."
        default: holding = "It holds \(held.count), from \(held[0]) to \(held[held.count - 1])."
        }
        return "Seed it with \(kind.seeding). \(holding)"
    }

    private static func listing(of state: State, routes: PokeAPIRoutes) -> [NamedAPIResource] {
        if let listing = state.listing { return listing }
        return state.pokemon.values
            .sorted { $0.id < $1.id }
            .map { NamedAPIResource(name: $0.name, url: routes.pokemon(id: $0.id)) }
    }

    /// Serves a list link: reads `offset` and `limit` from its query like pokeapi.co does.
    private func follow(_ link: URL) async throws(PokemonClientError) -> PagedList<NamedAPIResource> {
        let url = routes.rebased(link)
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let listPath = URLComponents(url: routes.pokemonList(offset: 0, limit: 0), resolvingAgainstBaseURL: true)?.path
        guard let components, components.path == listPath else {
            throw .notInMemory(
                url: url, missing: "page at \(url.absoluteString)",
                remedy: "It serves only Pokémon list links, \(listPath ?? "/api/v2/pokemon/")?offset=O&limit=L.")
        }
        func value(_ name: String) -> Int? {
            components.queryItems?.first { $0.name == name }?.value.flatMap { Int($0) }
        }
        return try await pokemonPage(offset: value("offset") ?? 0, limit: value("limit") ?? Self.defaultPageSize)
    }

    private func makePage(of listing: [NamedAPIResource], offset: Int, limit: Int) -> PagedList<NamedAPIResource> {
        let offset = max(0, offset)
        let limit = limit < 1 ? Self.defaultPageSize : limit
        let count = listing.count

        let start = min(offset, count)
        let end = min(offset + limit, count)
        let results = Array(listing[start..<end])

        // getNextPage: the next page starts at offset + limit and holds what remains, up to limit.
        let nextBegin = offset + limit
        let nextEnd = min(offset + 2 * limit, count)
        let next =
            nextEnd > nextBegin
            ? routes.pokemonList(offset: nextBegin, limit: nextEnd - nextBegin)
            : nil

        // getPreviousPage: the previous page ends at offset and starts limit earlier, not below 0.
        let previousBegin = max(0, offset - limit)
        let previous =
            previousBegin < offset
            ? routes.pokemonList(offset: previousBegin, limit: offset - previousBegin)
            : nil

        return PagedList(count: count, next: next, previous: previous, results: results)
    }
}
