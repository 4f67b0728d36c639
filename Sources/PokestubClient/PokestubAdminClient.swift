import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The pokestub admin API (`/__admin/…`) from Swift: add and remove stubs, read the request journal,
/// verify what an app sent, reset, and record.
///
/// Find the daemon the way the app does, from `POKEMON_URL`, or give its URL:
///
/// ```swift
/// let admin = try PokestubAdminClient()   // POKEMON_URL, else http://127.0.0.1:8080
/// try await admin.addStub(
///     .get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20"))
///         .willReturn(.json(["count": 0, "next": nil, "previous": nil, "results": []])))
/// // … run the app …
/// try await admin.verify(count: 1, .get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20")))
/// ```
///
/// Every method is `async` and runs on `URLSession`. Failures throw ``PokestubClientError``, whose description
/// names the request and the server's reason; a failed `verify` prints the requests the server did receive and
/// how the closest ones differ from the pattern.
/// The client holds no mutable state; share one instance across tasks.
public struct PokestubAdminClient: Sendable {
    /// The environment variable naming the server: `POKEMON_URL`, the same one the app reads.
    public static let environmentVariable = "POKEMON_URL"

    /// The server used when `POKEMON_URL` is absent or empty: `http://127.0.0.1:8080`, where `pokestub serve`
    /// listens by default.
    public static let defaultBaseURL = URL(string: "http://127.0.0.1:8080")!

    /// The server root, e.g. `http://127.0.0.1:8080`, without a trailing slash. Admin requests go to
    /// `{baseURL}/__admin/…`.
    public let baseURL: URL
    /// The session requests run on.
    public let session: URLSession
    /// How long one admin request may take before it fails, in seconds.
    public let timeoutSeconds: Double

    /// Creates a client for a server root.
    ///
    /// - Parameters:
    ///   - baseURL: The server root, e.g. `http://127.0.0.1:8080`; a trailing slash is ignored.
    ///   - session: The session to run requests on; `URLSession.shared` by default.
    ///   - timeoutSeconds: How long one admin request may take, in seconds; 10 by default.
    public init(baseURL: URL, session: URLSession = .shared, timeoutSeconds: Double = 10) {
        var text = baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        self.baseURL = URL(string: text) ?? baseURL
        self.session = session
        self.timeoutSeconds = timeoutSeconds
    }

    /// Creates a client for the server named by `POKEMON_URL`.
    ///
    /// - Parameters:
    ///   - environment: The variables to read; the process environment by default. Tests pass a dictionary
    ///     (`["POKEMON_URL": "http://127.0.0.1:49152"]`) instead of changing the process environment.
    ///   - session: The session to run requests on; `URLSession.shared` by default.
    ///   - timeoutSeconds: How long one admin request may take, in seconds; 10 by default.
    /// - Throws: ``PokestubClientError/invalidConfiguration(variable:value:reason:)`` naming `POKEMON_URL` when
    ///   it is set but is not an absolute http(s) URL with a host and without query or fragment. When it is
    ///   absent or blank, ``defaultBaseURL`` is used.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, session: URLSession = .shared,
        timeoutSeconds: Double = 10
    ) throws(PokestubClientError) {
        let variable = PokestubAdminClient.environmentVariable
        let raw = environment[variable] ?? ""
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if value.isEmpty {
            self.init(baseURL: PokestubAdminClient.defaultBaseURL, session: session, timeoutSeconds: timeoutSeconds)
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
        self.init(baseURL: url, session: session, timeoutSeconds: timeoutSeconds)
    }

    /// The URL of an admin operation.
    ///
    /// - Parameters:
    ///   - path: The path after `/__admin`, e.g. `/mappings`.
    ///   - query: Query items to add.
    /// - Returns: `{baseURL}/__admin{path}?{query}`.
    public func adminURL(_ path: String, query: [URLQueryItem] = []) -> URL {
        let url = URL(string: baseURL.absoluteString + "/__admin" + path)!
        guard !query.isEmpty, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url
        }
        components.queryItems = query
        return components.url ?? url
    }
}
