import Foundation

/// One test job's private view of a shared pokestub daemon: its own runtime stubs and its own request
/// journal, served under its own base URL, `{daemon}/__sessions/{id}`.
///
/// Requests under ``baseURL`` match the session's stubs first, then the daemon's stub files, and land in the
/// session's journal only, so jobs sharing a daemon on a CI host never see each other's stubs or requests.
/// Point the app at ``baseURL`` (pass ``environment`` as its launch environment) and drive the session with
/// ``admin``:
///
/// ```swift
/// try await admin.withSession(name: "job-42") { session in
///     try await session.admin.addStub(
///         StubBuilder.get("/api/v2/pokemon/25/").willReturn(.json(["name": "pikachu"])))
///     app.launchEnvironment = session.environment
///     app.launch()
///     try await session.admin.waitForRequests(.atLeast(1), .get("/api/v2/pokemon/25/"))
/// }
/// ```
///
/// Made by ``PokestubAdminClient/createSession(name:idleTimeout:)`` and
/// ``PokestubAdminClient/withSession(name:idleTimeout:isolation:_:)``; read from the session JSON
/// `{"id", "secret", "name", "baseUrl", "adminUrl", "idleTimeoutSeconds", "createdAt", "lastUsedAt", "stubs",
/// "requests"}` (`secret` only in the answer that made it).
/// The counts and times are as the server reported them when this value was read.
public struct PokestubSession: Sendable, CustomStringConvertible {
    /// The session's id, e.g. `3f2a…` (24 hex digits on pokestub).
    public let id: String
    /// The session's secret, known only to the client that made it (`nil` for a session read from a
    /// listing). ``admin`` sends it with each request: a daemon with an admin token answers a session's own
    /// routes only with it, and lists only the sessions whose secret is presented. Pass it with the id to
    /// another process that needs to drive the session (``PokestubAdminClient/scoped(toSession:secret:)``).
    public let secret: String?
    /// The name it was made with, e.g. the CI job's; `nil` when none.
    public let name: String?
    /// Where the app under test sends its requests, e.g. `http://127.0.0.1:8080/__sessions/3f2a…`: what it
    /// gets in `POKEMON_URL`. When the server names the port this client talks to, the scheme, host and port
    /// are the client's (so a daemon on `0.0.0.0` reached through the Mac's address keeps that address).
    public let baseURL: URL
    /// An admin client acting on this session alone (`/__admin/sessions/{id}/…`): stubs, journal, verify and
    /// wait see only the session's.
    public let admin: PokestubAdminClient
    /// Seconds without requests after which the daemon ends the session (the admin API's
    /// `idleTimeoutSeconds`); ``idleTimeout`` as a `Duration`.
    public let idleTimeoutSeconds: Int?
    /// How long the session may go without requests before the daemon ends it, or `nil` when the server did
    /// not say.
    public var idleTimeout: Duration? { idleTimeoutSeconds.map { .seconds($0) } }
    /// When the session was made.
    public let createdAt: Date?
    /// When the session was last used.
    public let lastUsedAt: Date?
    /// How many runtime stubs the session held.
    public let stubCount: Int?
    /// How many requests the session's journal held.
    public let requestCount: Int?

    /// `["POKEMON_URL": baseURL]`: the launch environment of the app under test (`XCUIApplication`'s
    /// `launchEnvironment`), or what `PokemonClient(environment:)` reads. It holds no admin token.
    public var environment: [String: String] {
        [PokestubAdminClient.environmentVariable: baseURL.absoluteString]
    }

    /// Reads a session the daemon answered with.
    ///
    /// - Parameters:
    ///   - json: The session object.
    ///   - daemon: The client that asked, acting on the daemon.
    ///   - method: The method of the request that answered, for errors.
    ///   - url: The admin URL that answered, for errors.
    /// - Throws: ``PokestubClientError/unexpectedResponse(method:url:reason:)`` when `id` or `baseUrl` is
    ///   missing or not a URL.
    init(json: JSONValue, daemon: PokestubAdminClient, method: String, url: URL) throws(PokestubClientError) {
        guard let id = json["id"]?.stringValue, !id.isEmpty, let base = json["baseUrl"]?.stringValue,
            let reported = URL(string: base)
        else {
            throw .unexpectedResponse(
                method: method, url: url, reason: "no session \"id\" and \"baseUrl\" in the answer")
        }
        self.id = id
        secret = json["secret"]?.stringValue ?? daemon.sessionSecret
        name = json["name"]?.stringValue
        baseURL = PokestubSession.rebase(reported, onto: daemon.baseURL)
        admin = daemon.scoped(toSession: id, secret: secret)
        idleTimeoutSeconds = json["idleTimeoutSeconds"]?.intValue
        createdAt = json["createdAt"]?.stringValue.flatMap(PokestubSession.date)
        lastUsedAt = json["lastUsedAt"]?.stringValue.flatMap(PokestubSession.date)
        stubCount = json["stubs"]?.intValue
        requestCount = json["requests"]?.intValue
    }

    /// Ends the session (`DELETE /__admin/sessions/{id}`): its stubs and journal are dropped and its base URL
    /// answers 404.
    ///
    /// - Throws: ``PokestubClientError``; `refused` with status 404 when it has already ended or expired.
    public func end() async throws(PokestubClientError) {
        try await admin.endSession(id: id)
    }

    /// `session 3f2a… "job-42" at http://127.0.0.1:8080/__sessions/3f2a…`.
    public var description: String {
        "session \(id)" + (name.map { " \($0.debugDescription)" } ?? "") + " at \(baseURL.absoluteString)"
    }

    /// The reported base URL with the client's scheme, host and port, when the ports agree.
    private static func rebase(_ reported: URL, onto daemonRoot: URL) -> URL {
        guard let server = URLComponents(url: reported, resolvingAgainstBaseURL: false),
            let client = URLComponents(url: daemonRoot, resolvingAgainstBaseURL: false),
            let serverPort = server.port ?? defaultPort(server.scheme),
            let clientPort = client.port ?? defaultPort(client.scheme), serverPort == clientPort,
            let rebased = URL(string: daemonRoot.absoluteString + server.percentEncodedPath)
        else { return reported }
        return rebased
    }

    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "http": 80
        case "https": 443
        default: nil
        }
    }

    private static func date(_ text: String) -> Date? {
        try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
