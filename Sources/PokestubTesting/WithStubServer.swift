import Foundation
import PokestubClient
import PokestubCore
import PokestubDaemon
import PokestubLocking

/// Runs `body` against an in-process pokestub server on `127.0.0.1` and a free port, and stops the server
/// when `body` returns or throws.
///
/// ```swift
/// @Test("the list screen shows the first page")
/// func listScreen() async throws {
///     let list = StubBuilder.get("/api/v2/pokemon/")
///         .withQueryParameter("limit", .equalTo("20"))
///         .willReturn(
///             .json([
///                 "count": 1, "next": nil, "previous": nil,
///                 "results": [["name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"]],
///             ]))
///     try await withStubServer(mappings: [list]) { server in
///         let client = try PokemonClient(environment: server.environment)
///         let page = try await client.pokemonPage(offset: 0, limit: 20)
///         #expect(page.results.map(\.name) == ["bulbasaur"])
///         try await server.admin.verify(count: 1, .get("/api/v2/pokemon/"))
///     }
/// }
/// ```
///
/// The server answers from, in this order: `routes` (Swift closures, see ``StubRoute``), then the stubs —
/// `mappings` and the mapping files of `stubsDirectory` together, chosen by priority and then the most recently
/// added, exactly as `pokestub serve` chooses. Requests no stub answers get 404 with a near-miss report.
/// Admin requests (`/__admin/…`) work as on the daemon. `mappings` are runtime stubs: `admin.reset()` and
/// `admin.resetStubs()` remove them and keep the stub files.
///
/// - Parameters:
///   - mappings: Stubs to add: `StubBuilder`s, `JSONValue` objects or mapping JSON text (a single mapping or
///     `{"mappings": [...]}`). Later ones win over earlier ones of the same priority.
///   - stubsDirectory: A stub root laid out like WireMock's (`mappings/**/*.json`, `__files/**`), such as
///     ``StubServer/shippedStubsDirectory``; `bodyFileName` in `mappings` is also looked up under its `__files`.
///     A relative path is read from the current folder.
///   - routes: Routes answered by closures, tried first, in order.
///   - journalCapacity: The most requests the journal keeps; 10,000 by default.
///   - isolation: The caller's actor, inherited so `body` need not be `Sendable`.
///   - body: The test, given the running server.
///     Its result is `sending` (SE-0430): handed to the caller's actor, which Swift 6.0 requires of a
///     value that is not `Sendable`; a value the body makes, or any `Sendable` one, qualifies.
/// - Returns: What `body` returns.
/// - Throws: ``StubServerError`` when `stubsDirectory` is not a folder (naming its absolute path), a mapping or
///   stub file is invalid, or the server cannot listen; otherwise whatever `body` throws.
public func withStubServer<Result>(
    mappings: [any StubMappingConvertible] = [], stubsDirectory: String? = nil, routes: [StubRoute] = [],
    journalCapacity: Int = 10_000, isolation: isolated (any Actor)? = #isolation,
    _ body: (StubServer) async throws -> sending Result
) async throws -> sending Result {
    // Loading a stub folder blocks for a while: it runs on a thread of its own, so neither the few threads
    // that run Swift tasks nor Dispatch's workers (about one per core on Linux) are held meanwhile.
    let (server, stubServer) = try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<(PokestubDaemon, StubServer), any Error>) in
        Thread {
            continuation.resume(
                with: Swift.Result {
                    try StubServerLauncher.start(
                        mappings: mappings, stubsDirectory: stubsDirectory, routes: routes,
                        journalCapacity: journalCapacity)
                })
        }.start()
    }
    // Stopped with `shutdown`, which waits off the cooperative threads; a `defer` cannot await.
    let result: Result
    do {
        result = try await body(stubServer)
    } catch {
        await server.shutdown(gracePeriod: StubServerLauncher.gracePeriod)
        throw error
    }
    await server.shutdown(gracePeriod: StubServerLauncher.gracePeriod)
    return result
}

/// Runs a synchronous `body` against an in-process pokestub server on `127.0.0.1` and a free port, and stops the
/// server when `body` returns or throws.
///
/// The same as `withStubServer` for code that is not async (the admin client, being async, is of little use
/// here; the base URL and ``StubServer/environment`` are). It has a name of its own rather than being an
/// overload: a closure whose only `await`s sit inside `#expect(...)` would otherwise pick the synchronous
/// overload and fail to compile.
///
/// - Parameters:
///   - mappings: Stubs to add: `StubBuilder`s, `JSONValue` objects or mapping JSON text.
///   - stubsDirectory: A stub root laid out like WireMock's, such as the repository's `stubs`.
///   - routes: Routes answered by closures, tried first, in order.
///   - journalCapacity: The most requests the journal keeps; 10,000 by default.
///   - body: The test, given the running server.
/// - Returns: What `body` returns.
/// - Throws: ``StubServerError`` when a mapping or stub file is invalid or the server cannot listen; otherwise
///   whatever `body` throws.
public func withStubServerSync<Result>(
    mappings: [any StubMappingConvertible] = [], stubsDirectory: String? = nil, routes: [StubRoute] = [],
    journalCapacity: Int = 10_000, _ body: (StubServer) throws -> Result
) throws -> Result {
    let (server, stubServer) = try StubServerLauncher.start(
        mappings: mappings, stubsDirectory: stubsDirectory, routes: routes, journalCapacity: journalCapacity)
    defer { server.stop(gracePeriod: StubServerLauncher.gracePeriod) }
    return try body(stubServer)
}

/// Builds, loads and starts the server behind `withStubServer` and `withStubServerSync`.
enum StubServerLauncher {
    /// How long requests in flight may take when the server stops.
    static let gracePeriod: Duration = .seconds(2)

    static func start(
        mappings: [any StubMappingConvertible], stubsDirectory: String?, routes: [StubRoute], journalCapacity: Int
    ) throws(StubServerError) -> (PokestubDaemon, StubServer) {
        if let stubsDirectory { try checkFolder(stubsDirectory) }
        var configuration = Configuration()
        configuration.port = 0
        configuration.stubs = stubsDirectory ?? ""
        configuration.journalMaxEntries = journalCapacity
        configuration.rewriteUpstreamLinks = false
        // A test fails at once on any stub problem, rather than meeting a 500 or a 404 later.
        configuration.strict = true
        let router = Locked<RoutingHandler?>(nil)
        let daemon: PokestubDaemon
        do {
            daemon = try PokestubDaemon(
                configuration: configuration, stubFolder: stubsDirectory == nil ? .none : .configured, threads: 2,
                adminAccess: nil,
                handler: { engine in
                    let handler = RoutingHandler(engine: engine, routes: routes)
                    router.withLock { $0 = handler }
                    return handler
                })
        } catch {
            throw StubServerError("the test server cannot listen: \(error)")
        }
        let bodyFiles = BodyFileStore(
            root: stubsDirectory.map { URL(fileURLWithPath: $0).appendingPathComponent("__files") })
        for (position, mapping) in mappings.enumerated() {
            for stub in try stubMappings(from: mapping, position: position, bodyFiles: bodyFiles) {
                daemon.store.add(stub)
            }
        }
        do {
            try daemon.start()
        } catch {
            switch error {
            case .stubProblems(let folder, let problems):
                let lines = problems.map { "  \($0.description)" }.joined(separator: "\n")
                throw StubServerError("the stubs in \(folder) have \(problems.count) problem(s):\n\(lines)")
            case .cannotListen: throw StubServerError("the test server cannot listen: \(error)")
            }
        }
        let stubServer = StubServer(
            baseURL: URL(string: daemon.baseURL)!, port: daemon.port, engine: daemon.engine,
            router: router.withLock { $0 }!)
        return (daemon, stubServer)
    }

    /// Fails unless `path` is a folder, naming it as an absolute path (a relative one is read from the current
    /// folder, which under `swift test` or Xcode is seldom the one the test's author thinks of) and what to
    /// pass instead.
    static func checkFolder(_ path: String) throws(StubServerError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue { return }
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let problem = FileManager.default.fileExists(atPath: path) ? "is not a folder" : "does not exist"
        let relative =
            path.hasPrefix("/")
            ? ""
            : " (\"\(path)\" is read from the current folder, \(FileManager.default.currentDirectoryPath))"
        throw StubServerError(
            "the stub folder \(absolute) \(problem)\(relative): pass the absolute path of a stub root "
                + "(a folder with mappings/ and __files/), or StubServer.shippedStubsDirectory for the stubs that "
                + "ship with pokestub")
    }

    /// Reads one entry of `mappings`: a single mapping, or `{"mappings": [...]}`.
    static func stubMappings(
        from mapping: any StubMappingConvertible, position: Int, bodyFiles: BodyFileStore
    ) throws(StubServerError) -> [StubMapping] {
        let json: JSONValue
        do {
            json = try mapping.stubMappingJSON()
        } catch {
            throw StubServerError("mappings[\(position)] is not a stub mapping: \(error)")
        }
        var items = [json]
        if json["request"] == nil, case .array(let list)? = json["mappings"] { items = list }
        var stubs: [StubMapping] = []
        for (index, item) in items.enumerated() {
            do {
                stubs.append(try StubMapping(json: item, defaultID: UUID(), source: .runtime, bodyFiles: bodyFiles))
            } catch {
                let place = items.count == 1 ? "mappings[\(position)]" : "mappings[\(position)].mappings[\(index)]"
                throw StubServerError("\(place) is not a valid stub mapping: \(error.description)")
            }
        }
        return stubs
    }
}
