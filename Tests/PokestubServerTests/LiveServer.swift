import Foundation
import PokestubCore
import PokestubDaemon
import PokestubServer
import PokestubTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A pokestub engine and server on 127.0.0.1 with a port the system picked, for tests over real sockets.
final class LiveServer: Sendable {
    let engine: StubEngine
    let server: PokestubDaemon
    let stubRoot: String?

    /// Starts a server.
    ///
    /// - Parameters:
    ///   - stubRoot: A stub folder to load, or `nil` for runtime stubs only.
    ///   - journalCapacity: The journal size.
    ///   - threads: Server threads.
    ///   - adminAccess: The admin token and the configured host.
    ///   - globalResponseTemplating: Every stub's response is a template.
    ///   - strict: The stub tree is all or nothing (config `strict`).
    init(
        stubRoot: String?, journalCapacity: Int = 10_000, threads: Int? = nil, adminAccess: AdminAccess = AdminAccess(),
        globalResponseTemplating: Bool = false, strict: Bool = false
    ) throws {
        self.stubRoot = stubRoot
        var configuration = Configuration()
        configuration.port = 0
        configuration.stubs = stubRoot ?? ""
        configuration.journalMaxEntries = journalCapacity
        configuration.rewriteUpstreamLinks = false
        configuration.globalResponseTemplating = globalResponseTemplating
        configuration.strict = strict
        server = try PokestubDaemon(
            configuration: configuration, stubFolder: stubRoot == nil ? .none : .configured, threads: threads,
            adminAccess: adminAccess, handler: nil)
        engine = server.engine
        try server.start()
    }

    /// Runs `body` with a started server and always stops it.
    static func with<T>(
        stubRoot: String? = nil, journalCapacity: Int = 10_000, threads: Int? = nil,
        adminAccess: AdminAccess = AdminAccess(), globalResponseTemplating: Bool = false, strict: Bool = false,
        _ body: (LiveServer) async throws -> T
    ) async throws -> T {
        // Loading stubs takes a while in a debug build; it runs on a thread of its own so the few threads that
        // run test tasks stay free for the tests running beside this one.
        let live = try await onOwnThread {
            try LiveServer(
                stubRoot: stubRoot, journalCapacity: journalCapacity, threads: threads, adminAccess: adminAccess,
                globalResponseTemplating: globalResponseTemplating, strict: strict)
        }
        let result: T
        do {
            result = try await body(live)
        } catch {
            await live.server.shutdown(gracePeriod: .milliseconds(500))
            throw error
        }
        await live.server.shutdown(gracePeriod: .milliseconds(500))
        return result
    }

    var baseURL: String { server.baseURL }

    /// Sends a request; the path is used exactly as written (already percent-encoded).
    func send(
        _ method: String = "GET", _ path: String, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Response {
        var request = URLRequest(url: URL(string: baseURL + path)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await LiveServer.session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Response(status: http.statusCode, headers: http.allHeaderFields as? [String: String] ?? [:], body: data)
    }

    /// Sends an admin request with a JSON body and parses the JSON answer.
    func admin(_ method: String, _ path: String, json: String? = nil) async throws -> (Int, JSONValue) {
        let response = try await send(method, "/__admin" + path, body: json.map { Data($0.utf8) })
        let value = response.body.isEmpty ? JSONValue.null : try JSONValue.parse(response.body)
        return (response.status, value)
    }

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }

        func header(_ name: String) -> String? {
            headers.first { $0.key.lowercased() == name.lowercased() }?.value
        }

        func json() throws -> JSONValue { try JSONValue.parse(body) }
    }

    private static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        // No cookie store: one test's Set-Cookie would otherwise replace the Cookie field a later test sets.
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = 20
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }()
}
