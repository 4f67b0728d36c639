import Foundation
import PokestubClient
import PokestubCore

/// A running in-process pokestub server, as `withStubServer(mappings:stubsDirectory:routes:journalCapacity:_:)`
/// hands it to the test body.
///
/// ```swift
/// try await withStubServer(mappings: [stub]) { server in
///     let client = try PokemonClient(environment: server.environment)
///     _ = try await client.pokemonPage(offset: 0, limit: 20)
///     try await server.admin.verify(count: 1, .get("/api/v2/pokemon/"))
/// }
/// ```
public struct StubServer: Sendable {
    /// The server root, e.g. `http://127.0.0.1:49152` (port chosen by the system).
    public let baseURL: URL
    /// The port the server listens on, on 127.0.0.1.
    public let port: Int
    /// An admin client for this server.
    public let admin: PokestubAdminClient
    /// `["POKEMON_URL": baseURL]`: pass it to whatever reads `POKEMON_URL`, such as
    /// `PokemonClient(environment:)`.
    public let environment: [String: String]
    /// The engine behind the socket: its `store` and `journal` can be read and
    /// changed directly.
    package let engine: StubEngine
    let router: RoutingHandler

    init(baseURL: URL, port: Int, engine: StubEngine, router: RoutingHandler) {
        self.baseURL = baseURL
        self.port = port
        self.engine = engine
        self.router = router
        admin = PokestubAdminClient(baseURL: baseURL)
        environment = [PokestubAdminClient.environmentVariable: baseURL.absoluteString]
    }

    /// A URL on this server.
    ///
    /// - Parameter path: A path starting with `/`, optionally with a query, e.g. `/api/v2/pokemon/?limit=20`.
    /// - Returns: `{baseURL}{path}`.
    public func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path)!
    }

    /// Adds a route answered by a closure; it is tried after the routes added before it, and before the stubs.
    ///
    /// - Parameter route: The route.
    public func appendRoute(_ route: StubRoute) {
        router.append(route)
    }

    /// Adds a route answered by a closure; it is tried after the routes added before it, and before the stubs.
    ///
    /// ```swift
    /// server.appendRoute("GET /api/v2/pokemon/:id") { request in
    ///     .json(["id": .string(request.parameters["id"] ?? "")])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - route: `METHOD /path` or `/path`, with `*` and `:name` segments (see ``StubRoute``).
    ///   - handler: Turns the request into the response. It may `await` and `throw`; a thrown error answers 500
    ///     with its description.
    public func appendRoute(_ route: String, handler: @escaping @Sendable (RouteRequest) async throws -> RouteResponse)
    {
        router.append(StubRoute(route, handler: handler))
    }

    /// Adds a route answered by an async closure.
    ///
    /// - Parameters:
    ///   - route: `METHOD /path` or `/path` (see ``StubRoute``).
    ///   - handler: Turns the request into the response.
    @available(
        *, deprecated, renamed: "appendRoute(_:handler:)", message: "the handler: closure may be async and throw"
    )
    @_disfavoredOverload
    public func appendRoute(
        _ route: String, asyncHandler handler: @escaping @Sendable (RouteRequest) async -> RouteResponse
    ) {
        router.append(StubRoute(route, handler: handler))
    }
}
