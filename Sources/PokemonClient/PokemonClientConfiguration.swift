import Foundation

/// Where ``PokemonClient`` sends its requests.
///
/// An app reads its configuration from the environment so that a UI test can point it at a
/// pokestub daemon without a rebuild:
///
/// ```swift
/// let configuration = try PokemonClientConfiguration()  // reads POKEMON_URL
/// let client = PokemonClient(configuration: configuration)
/// ```
///
/// The base URL is the server root, without `/api/v2`: `https://pokeapi.co` or
/// `http://127.0.0.1:8080`. It may carry a path prefix (such as a pokestub session's
/// `http://127.0.0.1:8080/__sessions/42`); request paths are appended to it.
public struct PokemonClientConfiguration: Sendable, Hashable {
    /// The environment variable that overrides the base URL: `POKEMON_URL`.
    public static let environmentVariable = "POKEMON_URL"

    /// The base URL used when `POKEMON_URL` is absent or empty: `https://pokeapi.co`.
    public static let defaultBaseURL = URL(string: "https://pokeapi.co")!

    /// The server root requests are built on, without a trailing slash.
    public let baseURL: URL

    /// Creates a configuration for a base URL.
    ///
    /// The URL is taken as given except that trailing slashes are removed, so
    /// `http://127.0.0.1:8080/` and `http://127.0.0.1:8080` are the same configuration. Use
    /// ``init(environment:)`` when the URL comes from outside the app and needs validating.
    ///
    /// - Parameter baseURL: The server root, such as `https://pokeapi.co`.
    public init(baseURL: URL) {
        self.baseURL = Self.trimmingTrailingSlashes(baseURL)
    }

    /// Reads the configuration from an environment, falling back to pokeapi.co.
    ///
    /// `POKEMON_URL` decides the base URL:
    /// - absent, empty or only whitespace: ``defaultBaseURL`` (`https://pokeapi.co`);
    /// - an absolute `http` or `https` URL with a host, such as `http://127.0.0.1:8080`: that URL.
    ///   Surrounding whitespace and trailing slashes are ignored; a path prefix is kept.
    ///
    /// Tests pass a dictionary rather than changing the process environment:
    ///
    /// ```swift
    /// let configuration = try PokemonClientConfiguration(
    ///     environment: ["POKEMON_URL": "http://127.0.0.1:8080"])
    /// ```
    ///
    /// - Parameter environment: The variables to read; the process environment by default.
    /// - Throws: ``PokemonClientError/invalidConfiguration(variable:value:reason:)`` naming
    ///   `POKEMON_URL` when its value is not an absolute http(s) URL with a host, or carries a query
    ///   or fragment.
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(PokemonClientError) {
        let variable = Self.environmentVariable
        guard let raw = environment[variable] else {
            self.init(baseURL: Self.defaultBaseURL)
            return
        }
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if value.isEmpty {
            self.init(baseURL: Self.defaultBaseURL)
            return
        }
        func invalid(_ reason: String) -> PokemonClientError {
            .invalidConfiguration(variable: variable, value: raw, reason: reason)
        }
        guard let components = URLComponents(string: value) else {
            throw invalid("not a URL")
        }
        guard let scheme = components.scheme?.lowercased() else {
            throw invalid("not an absolute URL; expected something like http://127.0.0.1:8080")
        }
        guard scheme == "http" || scheme == "https" else {
            throw invalid("scheme must be http or https, not \(scheme)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw invalid("the URL has no host; expected something like http://127.0.0.1:8080")
        }
        guard components.percentEncodedQuery == nil else {
            throw invalid("the URL must not have a query")
        }
        guard components.percentEncodedFragment == nil else {
            throw invalid("the URL must not have a fragment")
        }
        guard let url = components.url else {
            throw invalid("not a URL")
        }
        self.init(baseURL: url)
    }

    private static func trimmingTrailingSlashes(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url
        }
        var path = components.percentEncodedPath
        while path.hasSuffix("/") {
            path.removeLast()
        }
        components.percentEncodedPath = path
        // Removing slashes leaves either an empty path or one that still starts with "/", both
        // valid next to a host, so this only falls back for URLs that were odd to begin with.
        return components.url ?? url
    }
}
