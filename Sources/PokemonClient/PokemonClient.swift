import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live ``PokemonService``: PokeAPI over HTTP with `URLSession`.
///
/// Point it at pokeapi.co, or at a pokestub daemon by setting `POKEMON_URL`:
///
/// ```swift
/// let client = try PokemonClient()  // reads POKEMON_URL, else https://pokeapi.co
/// let page = try await client.pokemonPage(offset: 0, limit: 20)
/// let bulbasaur = try await client.pokemon(name: page.results[0].name)
/// ```
///
/// Requests use the canonical URLs pokeapi.co links to (see ``PokeAPIRoutes``) and send
/// `Accept: application/json`. Links found in response bodies (`next`, `previous`, resource `url`s)
/// are re-based onto the configured server before they are followed (see
/// ``PokeAPIRoutes/rebased(_:)``), so an app pointed at a stub server never drifts back to the
/// real API.
///
/// `PokemonClient` holds no mutable state; share one instance freely across tasks.
public struct PokemonClient: PokemonService {
    /// Where requests go.
    public let configuration: PokemonClientConfiguration
    /// The URL builder for ``configuration``'s base URL.
    public let routes: PokeAPIRoutes
    /// The session requests run on.
    public let session: URLSession

    /// Creates a client for a configuration.
    ///
    /// - Parameters:
    ///   - configuration: Where requests go.
    ///   - session: The session to run requests on; `URLSession.shared` by default. Inject one to
    ///     set timeouts, caching or a custom `URLProtocol`.
    public init(configuration: PokemonClientConfiguration, session: URLSession = .shared) {
        self.configuration = configuration
        self.routes = PokeAPIRoutes(baseURL: configuration.baseURL)
        self.session = session
    }

    /// Creates a client configured from the environment (`POKEMON_URL`).
    ///
    /// - Parameters:
    ///   - environment: The variables to read; the process environment by default.
    ///   - session: The session to run requests on; `URLSession.shared` by default.
    /// - Throws: ``PokemonClientError/invalidConfiguration(variable:value:reason:)`` when
    ///   `POKEMON_URL` is set to something other than an absolute http(s) URL.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        session: URLSession = .shared
    ) throws(PokemonClientError) {
        self.init(configuration: try PokemonClientConfiguration(environment: environment), session: session)
    }

    // MARK: - PokemonService

    /// Fetches one page of the Pokémon list: `GET {base}/api/v2/pokemon/?offset={offset}&limit={limit}`.
    ///
    /// The values are sent as given; the server decides what it does with unusual ones
    /// (pokeapi.co treats a `limit` of 0 as 20).
    ///
    /// - Parameters:
    ///   - offset: How many Pokémon to skip, from 0.
    ///   - limit: How many Pokémon the page holds at most.
    /// - Returns: The page, with links as the server wrote them.
    /// - Throws: ``PokemonClientError``.
    public func pokemonPage(offset: Int, limit: Int) async throws(PokemonClientError) -> PagedList<NamedAPIResource> {
        try await get(routes.pokemonList(offset: offset, limit: limit))
    }

    /// Fetches the page `page.next` links to, re-based onto the configured server.
    ///
    /// - Parameter page: A page previously returned by this client.
    /// - Returns: The following page, or `nil` when `page.next` is `nil`.
    /// - Throws: ``PokemonClientError``.
    public func page(
        after page: PagedList<NamedAPIResource>
    ) async throws(PokemonClientError) -> PagedList<NamedAPIResource>? {
        guard let next = page.next else { return nil }
        return try await get(routes.rebased(next))
    }

    /// Fetches the page `page.previous` links to, re-based onto the configured server.
    ///
    /// - Parameter page: A page previously returned by this client.
    /// - Returns: The preceding page, or `nil` when `page.previous` is `nil`.
    /// - Throws: ``PokemonClientError``.
    public func page(
        before page: PagedList<NamedAPIResource>
    ) async throws(PokemonClientError) -> PagedList<NamedAPIResource>? {
        guard let previous = page.previous else { return nil }
        return try await get(routes.rebased(previous))
    }

    /// Fetches a Pokémon by id: `GET {base}/api/v2/pokemon/{id}/`.
    ///
    /// - Parameter id: The Pokémon's id, such as 25.
    /// - Returns: The Pokémon.
    /// - Throws: ``PokemonClientError``; status 404 for an unknown id.
    public func pokemon(id: Int) async throws(PokemonClientError) -> Pokemon {
        try await get(routes.pokemon(id: id))
    }

    /// Fetches a Pokémon by name: `GET {base}/api/v2/pokemon/{name}/`, lower-cased and percent-encoded.
    ///
    /// - Parameter name: The Pokémon's name, such as `pikachu`.
    /// - Returns: The Pokémon.
    /// - Throws: ``PokemonClientError``; status 404 for an unknown name.
    public func pokemon(name: String) async throws(PokemonClientError) -> Pokemon {
        try await get(routes.pokemon(name: name))
    }

    /// Fetches a species by id: `GET {base}/api/v2/pokemon-species/{id}/`.
    ///
    /// - Parameter id: The species' id, such as 669.
    /// - Returns: The species.
    /// - Throws: ``PokemonClientError``; status 404 for an unknown id.
    public func species(id: Int) async throws(PokemonClientError) -> PokemonSpecies {
        try await get(routes.species(id: id))
    }

    /// Fetches a species by name: `GET {base}/api/v2/pokemon-species/{name}/`.
    ///
    /// - Parameter name: The species' name, such as `flabebe`.
    /// - Returns: The species.
    /// - Throws: ``PokemonClientError``; status 404 for an unknown name.
    public func species(name: String) async throws(PokemonClientError) -> PokemonSpecies {
        try await get(routes.species(name: name))
    }

    /// Fetches a type by id: `GET {base}/api/v2/type/{id}/`.
    ///
    /// - Parameter id: The type's id, such as 1.
    /// - Returns: The type.
    /// - Throws: ``PokemonClientError``; status 404 for an unknown id.
    public func type(id: Int) async throws(PokemonClientError) -> PokemonType {
        try await get(routes.type(id: id))
    }

    /// Fetches a type by name: `GET {base}/api/v2/type/{name}/`.
    ///
    /// - Parameter name: The type's name, such as `normal`.
    /// - Returns: The type.
    /// - Throws: ``PokemonClientError``; status 404 for an unknown name.
    public func type(name: String) async throws(PokemonClientError) -> PokemonType {
        try await get(routes.type(name: name))
    }

    // MARK: - Following links

    /// Fetches and decodes the resource a link in a response body points at.
    ///
    /// Use it to follow a ``NamedAPIResource/url`` or ``APIResource/url`` of a kind this client has
    /// no dedicated method for, such as an evolution chain. The link is re-based onto the
    /// configured server first (see ``PokeAPIRoutes/rebased(_:)``).
    ///
    /// ```swift
    /// let species = try await client.resource(PokemonSpecies.self, at: pokemon.species.url)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode the body as.
    ///   - link: The link, absolute or root-relative, as found in a body.
    /// - Returns: The decoded resource.
    /// - Throws: ``PokemonClientError``.
    public func resource<Resource: Decodable>(
        _ type: Resource.Type,
        at link: URL
    ) async throws(PokemonClientError) -> Resource {
        try await get(routes.rebased(link))
    }

    // MARK: - Transport

    /// Sends `GET url` with `Accept: application/json` and decodes a 2xx body as `Resource`.
    private func get<Resource: Decodable>(_ url: URL) async throws(PokemonClientError) -> Resource {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")

        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .transport(url: url, error: error)
        }
        guard let http = response as? HTTPURLResponse else {
            throw .transport(url: url, underlying: "the response is not an HTTP response")
        }
        guard (200..<300).contains(http.statusCode) else {
            throw .httpStatus(url: url, status: http.statusCode, body: data)
        }
        do {
            return try JSONDecoder().decode(Resource.self, from: data)
        } catch {
            throw .decoding(url: url, error: error)
        }
    }
}
