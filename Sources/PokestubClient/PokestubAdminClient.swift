import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pokestub admin API (`/__admin/…`) from Swift: add and remove stubs, read the request journal,
/// verify what an app sent, wait for requests, open per-job sessions, reset, and record.
///
/// Find the daemon the way the app does, from `POKEMON_URL`, or give its URL:
///
/// ```swift
/// let admin = try PokestubAdminClient()  // POKEMON_URL, else http://127.0.0.1:8080; POKESTUB_ADMIN_TOKEN
/// try await admin.addStub(
///     StubBuilder.get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20"))
///         .willReturn(.json(["count": 0, "next": nil, "previous": nil, "results": []])))
/// // … run the app …
/// try await admin.verify(count: 1, .get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20")))
/// ```
///
/// A client acts either on the daemon itself (admin requests under `/__admin`) or on one session of it (under
/// `/__admin/sessions/{id}`, see ``PokestubSession``): every method then reads and changes that session's
/// stubs and journal only. ``PokestubSession/admin`` is such a client; ``scoped(toSession:secret:)`` makes one.
///
/// Every method is `async` and runs on `URLSession`. Failures throw ``PokestubClientError``, whose description
/// names the request and the server's reason; a failed `verify` prints the requests the server did receive and
/// how the closest ones differ from the pattern.
/// The client holds no mutable state; share one instance across tasks.
public struct PokestubAdminClient: Sendable, CustomStringConvertible, CustomReflectable {
    /// The environment variable naming the server: `POKEMON_URL`, the same one the app reads.
    public static let environmentVariable = "POKEMON_URL"

    /// The environment variable holding the admin token: `POKESTUB_ADMIN_TOKEN`, the value of the daemon's
    /// `adminToken` setting.
    public static let tokenEnvironmentVariable = "POKESTUB_ADMIN_TOKEN"

    /// The server used when `POKEMON_URL` is absent or empty: `http://127.0.0.1:8080`, where `pokestub serve`
    /// listens by default.
    public static let defaultBaseURL = URL(string: "http://127.0.0.1:8080")!

    /// The path prefix of the daemon's own admin API: `/__admin`.
    public static let adminPrefix = "/__admin"

    /// The path prefix of a session's requests on the daemon: `/__sessions` (a session answers under
    /// `/__sessions/{id}`).
    public static let sessionsPrefix = "/__sessions"

    /// The server root, e.g. `http://127.0.0.1:8080`, without a trailing slash. Admin requests go to
    /// `{baseURL}{adminPath}/…`.
    public let baseURL: URL
    /// The id of the session this client acts on, or `nil` when it acts on the daemon itself.
    public let sessionID: String?
    /// The session requests run on.
    public let session: URLSession
    /// How long one admin request may take before it fails. A wait
    /// (``waitForRequests(_:_:timeout:pollInterval:file:line:)``) may take this much longer than its own timeout.
    public let timeout: Duration
    /// ``timeout`` in seconds.
    @available(*, deprecated, renamed: "timeout")
    public var timeoutSeconds: Double { timeoutInterval }
    /// ``timeout`` in seconds, as `URLRequest` takes it.
    var timeoutInterval: Double {
        Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    }
    /// The bearer token sent with every admin request, or `nil`. Kept out of ``description``.
    let token: String?
    /// The secret of the session this client acts on, sent as `Pokestub-Session-Secret`, or `nil`. Kept out
    /// of ``description``.
    let sessionSecret: String?
    /// Where a failing check also puts what explains it (``recordingFailureAttachments(with:)``), or `nil`.
    let failureAttachmentRecorder: FailureAttachmentRecorder?

    /// Creates a client for a server root.
    ///
    /// A URL ending in a session's base path, `/__sessions/{id}` (what ``PokestubSession/baseURL`` and a session's
    /// `POKEMON_URL` hold), makes a client for that session: the server root is what comes before it, and
    /// admin requests go to `/__admin/sessions/{id}/…`.
    ///
    /// - Parameters:
    ///   - baseURL: The server root, e.g. `http://127.0.0.1:8080`; a trailing slash is ignored.
    ///   - token: The admin token, sent as `Authorization: Bearer <token>` with every admin request; `nil` (the
    ///     default) or blank sends none. Surrounding whitespace is ignored.
    ///   - session: The session to run requests on; `URLSession.shared` by default.
    ///   - timeout: How long one admin request may take; 10 seconds by default.
    ///   - sessionSecret: For a session's URL, the session's secret (``PokestubSession/secret``), sent as
    ///     `Pokestub-Session-Secret`: a daemon with an admin token answers a session's routes only with it.
    public init(
        baseURL: URL, token: String? = nil, session: URLSession = .shared, timeout: Duration = .seconds(10),
        sessionSecret: String? = nil
    ) {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        var sessionID: String?
        if let marker = text.range(of: PokestubAdminClient.sessionsPrefix + "/", options: .backwards) {
            let id = text[marker.upperBound...]
            if !id.isEmpty, !id.contains(where: { "/?#".contains($0) }) {
                sessionID = String(id)
                text = String(text[..<marker.lowerBound])
            }
        }
        self.init(
            root: URL(string: text) ?? baseURL, sessionID: sessionID, token: token, session: session,
            timeout: timeout, sessionSecret: sessionSecret)
    }

    /// Creates a client for a server root, with the request timeout in seconds.
    ///
    /// - Parameters:
    ///   - baseURL: The server root.
    ///   - token: The admin token, or `nil`.
    ///   - session: The session to run requests on.
    ///   - timeoutSeconds: How long one admin request may take, in seconds.
    @available(*, deprecated, message: "pass timeout: as a Duration, e.g. .seconds(5)")
    public init(baseURL: URL, token: String? = nil, session: URLSession = .shared, timeoutSeconds: Double) {
        self.init(baseURL: baseURL, token: token, session: session, timeout: .milliseconds(Int(timeoutSeconds * 1000)))
    }

    /// Creates a client for the server named by `POKEMON_URL`, with the token in `POKESTUB_ADMIN_TOKEN` and,
    /// for a session's URL, the session's secret in `POKESTUB_SESSION_SECRET`.
    ///
    /// - Parameters:
    ///   - environment: The variables to read; the process environment by default. Tests pass a dictionary
    ///     (`["POKEMON_URL": "http://127.0.0.1:49152", "POKESTUB_ADMIN_TOKEN": "…"]`) instead of changing the
    ///     process environment.
    ///   - session: The session to run requests on; `URLSession.shared` by default.
    ///   - timeout: How long one admin request may take; 10 seconds by default.
    /// - Throws: ``PokestubClientError/invalidConfiguration(variable:value:reason:)`` naming `POKEMON_URL` when
    ///   it is set but is not an absolute http(s) URL with a host and without query or fragment, or naming
    ///   `POKESTUB_ADMIN_TOKEN` when the token holds spaces or control characters (its value is not shown).
    ///   When `POKEMON_URL` is absent or blank, ``defaultBaseURL`` is used; when `POKESTUB_ADMIN_TOKEN` is
    ///   absent or blank, no token is sent.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, session: URLSession = .shared,
        timeout: Duration = .seconds(10)
    ) throws(PokestubClientError) {
        let token = try PokestubAdminClient.token(in: environment)
        let variable = PokestubAdminClient.environmentVariable
        let raw = environment[variable] ?? ""
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if value.isEmpty {
            self.init(baseURL: PokestubAdminClient.defaultBaseURL, token: token, session: session, timeout: timeout)
            return
        }
        func invalid(_ reason: String) -> PokestubClientError {
            .invalidConfiguration(variable: variable, value: raw, reason: reason)
        }
        guard let components = URLComponents(string: value), let url = components.url else {
            throw invalid("not a URL")
        }
        guard let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme) else {
            throw invalid("expected an http or https URL such as http://127.0.0.1:8080")
        }
        guard let host = components.host, !host.isEmpty else {
            throw invalid("the URL has no host; expected something like http://127.0.0.1:8080")
        }
        guard components.percentEncodedQuery == nil, components.percentEncodedFragment == nil else {
            throw invalid("the URL must not have a query or fragment")
        }
        let secret = environment[PokestubAdminClient.sessionSecretEnvironmentVariable]?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        self.init(
            baseURL: url, token: token, session: session, timeout: timeout,
            sessionSecret: secret?.isEmpty == false ? secret : nil)
    }

    /// Creates a client for the server named by `POKEMON_URL`, with the request timeout in seconds.
    ///
    /// - Parameters:
    ///   - environment: The variables to read.
    ///   - session: The session to run requests on.
    ///   - timeoutSeconds: How long one admin request may take, in seconds.
    /// - Throws: As ``init(environment:session:timeout:)``.
    @available(*, deprecated, message: "pass timeout: as a Duration, e.g. .seconds(5)")
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, session: URLSession = .shared,
        timeoutSeconds: Double
    ) throws(PokestubClientError) {
        try self.init(environment: environment, session: session, timeout: .milliseconds(Int(timeoutSeconds * 1000)))
    }

    /// The environment variable holding a session's secret, for a client made from a session's
    /// `POKEMON_URL` in another process: `POKESTUB_SESSION_SECRET`.
    public static let sessionSecretEnvironmentVariable = "POKESTUB_SESSION_SECRET"

    /// Creates a client from its parts, the server root taken as given.
    init(
        root: URL, sessionID: String?, token: String?, session: URLSession, timeout: Duration,
        sessionSecret: String? = nil, failureAttachmentRecorder: FailureAttachmentRecorder? = nil
    ) {
        baseURL = root
        self.sessionID = sessionID
        self.sessionSecret = sessionSecret
        self.failureAttachmentRecorder = failureAttachmentRecorder
        let trimmed = token?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        self.token = trimmed.isEmpty ? nil : trimmed
        self.session = session
        self.timeout = timeout
    }

    /// Reads `POKESTUB_ADMIN_TOKEN`: `nil` when absent or blank.
    private static func token(in environment: [String: String]) throws(PokestubClientError) -> String? {
        let variable = PokestubAdminClient.tokenEnvironmentVariable
        let value = (environment[variable] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else { return nil }
        guard value.unicodeScalars.allSatisfy({ (0x21...0x7E).contains($0.value) }) else {
            throw .invalidConfiguration(
                variable: variable, value: "<\(value.count) characters, not shown>",
                reason: "an admin token must be printable ASCII without spaces")
        }
        return value
    }

    /// The path prefix of this client's admin requests: `/__admin` for the daemon, `/__admin/sessions/{id}` for
    /// a session.
    public var adminPath: String {
        sessionID.map { "\(PokestubAdminClient.adminPrefix)/sessions/\($0)" } ?? PokestubAdminClient.adminPrefix
    }

    /// Whether the client sends an admin token.
    public var hasToken: Bool { token != nil }

    /// The URL of an admin operation.
    ///
    /// - Parameters:
    ///   - path: The path after the admin prefix, e.g. `/mappings`.
    ///   - query: Query items to add.
    /// - Returns: `{baseURL}{adminPath}{path}?{query}`, e.g. `http://127.0.0.1:8080/__admin/mappings`.
    public func adminURL(_ path: String, query: [URLQueryItem] = []) -> URL {
        let url = URL(string: baseURL.absoluteString + adminPath + path)!
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url
        }
        components.queryItems = query
        return components.url ?? url
    }

    /// A client for one session of the same daemon, with the same token, URL session, timeout and failure
    /// attachment recorder (``recordingFailureAttachments(with:)``): its methods
    /// act on that session's stubs and journal (`/__admin/sessions/{id}/…`).
    ///
    /// - Parameters:
    ///   - id: The session's id, as ``createSession(name:idleTimeout:)`` or ``sessions()`` returned it.
    ///   - secret: The session's secret (``PokestubSession/secret``), sent as `Pokestub-Session-Secret` with
    ///     every request: a daemon with an admin token answers a session's routes only to its creator.
    /// - Returns: The scoped client.
    public func scoped(toSession id: String, secret: String? = nil) -> PokestubAdminClient {
        PokestubAdminClient(
            root: baseURL, sessionID: id, token: token, session: session, timeout: timeout,
            sessionSecret: secret, failureAttachmentRecorder: failureAttachmentRecorder)
    }

    /// This client acting on the daemon itself, whatever session it is scoped to: where sessions are made,
    /// listed and ended.
    var daemon: PokestubAdminClient {
        guard sessionID != nil else { return self }
        return PokestubAdminClient(
            root: baseURL, sessionID: nil, token: token, session: session, timeout: timeout,
            sessionSecret: sessionSecret, failureAttachmentRecorder: failureAttachmentRecorder)
    }

    /// `pokestub admin at http://127.0.0.1:8080/__admin (bearer token set)`; never the token itself.
    public var description: String {
        "pokestub admin at \(baseURL.absoluteString)\(adminPath)" + (token == nil ? "" : " (bearer token set)")
    }

    /// The client's parts for `dump` and debuggers: `baseURL`, `sessionID`, `hasToken`, `timeout`; never
    /// the token itself.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "baseURL": baseURL, "sessionID": sessionID as Any, "hasToken": hasToken,
                "timeout": timeout,
            ])
    }
}
