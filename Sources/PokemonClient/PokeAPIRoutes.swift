import Foundation

/// Builds PokeAPI request URLs on a base URL, in the canonical form the real API uses.
///
/// pokeapi.co serves each resource at one canonical URL and links to it in that form, so a stub
/// recorded from it matches requests written the same way:
/// - lists: `{base}/api/v2/pokemon/?offset=0&limit=20` (trailing slash; `offset` before `limit`);
/// - details: `{base}/api/v2/pokemon/25/` or `{base}/api/v2/pokemon/pikachu/` (trailing slash).
///
/// Names are lower-cased (PokeAPI's names are lower-case) and percent-encoded as one path
/// segment, so `Flabébé` becomes `flab%C3%A9b%C3%A9`. See <https://pokeapi.co/docs/v2>.
///
/// ```swift
/// let routes = PokeAPIRoutes(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// let url = routes.pokemonList(offset: 20, limit: 20)
/// // http://127.0.0.1:8080/api/v2/pokemon/?offset=20&limit=20
/// ```
public struct PokeAPIRoutes: Sendable, Hashable {
    /// The server root, without a trailing slash.
    public let baseURL: URL

    /// The base URL's path, percent-encoded, without a trailing slash ("" for a bare host).
    private let basePath: String

    /// Creates routes on a base URL.
    ///
    /// - Parameter baseURL: The server root, such as `https://pokeapi.co`; a trailing slash and a
    ///   path prefix (such as a pokestub session's `/__sessions/42`) are both fine.
    public init(baseURL: URL) {
        self.baseURL = baseURL
        var path = URLComponents(url: baseURL, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? ""
        while path.hasSuffix("/") {
            path.removeLast()
        }
        self.basePath = path
    }

    /// The URL of one page of the Pokémon list.
    ///
    /// - Parameters:
    ///   - offset: How many Pokémon to skip, from 0.
    ///   - limit: How many Pokémon the page holds at most (PokeAPI's default is 20).
    /// - Returns: `{base}/api/v2/pokemon/?offset={offset}&limit={limit}`.
    public func pokemonList(offset: Int, limit: Int) -> URL {
        list("pokemon", offset: offset, limit: limit)
    }

    /// The URL of one page of any PokeAPI list endpoint.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint's path segment, such as `pokemon` or `type`.
    ///   - offset: How many items to skip, from 0.
    ///   - limit: How many items the page holds at most.
    /// - Returns: `{base}/api/v2/{endpoint}/?offset={offset}&limit={limit}`.
    public func list(_ endpoint: String, offset: Int, limit: Int) -> URL {
        url(path: "/api/v2/\(Self.encodeSegment(endpoint))/", query: "offset=\(offset)&limit=\(limit)")
    }

    /// The URL of a Pokémon by id: `{base}/api/v2/pokemon/{id}/`.
    ///
    /// - Parameter id: The Pokémon's id, such as 25.
    /// - Returns: The canonical detail URL.
    public func pokemon(id: Int) -> URL { resource("pokemon", idOrName: String(id)) }

    /// The URL of a Pokémon by name: `{base}/api/v2/pokemon/{name}/`, lower-cased and percent-encoded.
    ///
    /// - Parameter name: The Pokémon's name, such as `pikachu`.
    /// - Returns: The canonical detail URL.
    public func pokemon(name: String) -> URL { resource("pokemon", idOrName: name) }

    /// The URL of a species by id: `{base}/api/v2/pokemon-species/{id}/`.
    ///
    /// - Parameter id: The species' id, such as 669.
    /// - Returns: The canonical detail URL.
    public func species(id: Int) -> URL { resource("pokemon-species", idOrName: String(id)) }

    /// The URL of a species by name: `{base}/api/v2/pokemon-species/{name}/`.
    ///
    /// - Parameter name: The species' name, such as `flabebe`.
    /// - Returns: The canonical detail URL.
    public func species(name: String) -> URL { resource("pokemon-species", idOrName: name) }

    /// The URL of a type by id: `{base}/api/v2/type/{id}/`.
    ///
    /// - Parameter id: The type's id, such as 1.
    /// - Returns: The canonical detail URL.
    public func type(id: Int) -> URL { resource("type", idOrName: String(id)) }

    /// The URL of a type by name: `{base}/api/v2/type/{name}/`.
    ///
    /// - Parameter name: The type's name, such as `normal`.
    /// - Returns: The canonical detail URL.
    public func type(name: String) -> URL { resource("type", idOrName: name) }

    /// The URL of any PokeAPI resource: `{base}/api/v2/{endpoint}/{idOrName}/`.
    ///
    /// - Parameters:
    ///   - endpoint: The endpoint's path segment, such as `ability`.
    ///   - idOrName: The resource's id or name; lower-cased and percent-encoded as one path segment
    ///     (a `/` in it is encoded, not treated as a separator).
    /// - Returns: The canonical detail URL.
    public func resource(_ endpoint: String, idOrName: String) -> URL {
        let segment = Self.encodeSegment(idOrName.lowercased())
        return url(path: "/api/v2/\(Self.encodeSegment(endpoint))/\(segment)/", query: nil)
    }

    /// Moves a link found in a response body onto this base URL when it points elsewhere.
    ///
    /// Response bodies link to other resources and pages (`next`, `previous`, every `url`
    /// field). pokeapi.co writes them as `https://pokeapi.co/...`, and a stub server that replays
    /// recorded bodies passes those links on unchanged; the offline data dump writes them
    /// root-relative (`/api/v2/...`). Following such a link as written would take an app that was
    /// pointed at a stub server (through `POKEMON_URL`) back to the real API, or nowhere. So:
    /// - a link on the same origin as the base URL (same scheme, host and port) is returned as is;
    /// - any other link, or a relative one, keeps its path and query and takes the base URL's
    ///   scheme, host and port. If the base URL has a path prefix that the link's path does not
    ///   already start with, the prefix is put in front.
    ///
    /// ```swift
    /// let routes = PokeAPIRoutes(baseURL: URL(string: "http://127.0.0.1:8080")!)
    /// let url = routes.rebased(URL(string: "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20")!)
    /// // http://127.0.0.1:8080/api/v2/pokemon/?offset=20&limit=20
    /// ```
    ///
    /// - Parameter link: A URL from a response body, absolute or root-relative.
    /// - Returns: The URL to request.
    public func rebased(_ link: URL) -> URL {
        let absolute = link.absoluteURL
        if absolute.host != nil, Self.origin(of: absolute) == Self.origin(of: baseURL) {
            return absolute
        }
        guard let components = URLComponents(url: absolute, resolvingAgainstBaseURL: true) else {
            return absolute
        }
        var path = components.percentEncodedPath
        if !path.hasPrefix("/") {
            path = "/" + path
        }
        if !basePath.isEmpty, path != basePath, !path.hasPrefix(basePath + "/") {
            path = basePath + path
        }
        return url(fullPath: path, query: components.percentEncodedQuery)
    }

    // MARK: - Building

    /// Characters left as they are in a path segment: RFC 3986's unreserved set.
    private static let unreserved: CharacterSet = {
        var set = CharacterSet()
        set.insert(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        return set
    }()

    /// Percent-encodes a string as one path segment (UTF-8, everything outside RFC 3986's
    /// unreserved characters encoded).
    static func encodeSegment(_ segment: String) -> String {
        segment.addingPercentEncoding(withAllowedCharacters: unreserved) ?? segment
    }

    private func url(path: String, query: String?) -> URL {
        url(fullPath: basePath + path, query: query)
    }

    private func url(fullPath: String, query: String?) -> URL {
        var components = URLComponents()
        components.scheme = baseURL.scheme
        components.percentEncodedHost =
            URLComponents(url: baseURL, resolvingAgainstBaseURL: true)?
            .percentEncodedHost
        components.port = baseURL.port
        components.percentEncodedPath = fullPath
        components.percentEncodedQuery = query
        guard let url = components.url else {
            // Every path built here starts with "/" and holds only percent-encoded segments, and
            // the scheme and host come from a URL that already parsed, so this cannot happen.
            preconditionFailure("PokeAPIRoutes built an invalid URL from \(baseURL) and \(fullPath)")
        }
        return url
    }

    private struct Origin: Equatable {
        var scheme: String?
        var host: String?
        var port: Int?
    }

    private static func origin(of url: URL) -> Origin {
        let scheme = url.scheme?.lowercased()
        let defaultPort: Int? =
            switch scheme {
            case "http": 80
            case "https": 443
            default: nil
            }
        return Origin(scheme: scheme, host: url.host?.lowercased(), port: url.port ?? defaultPort)
    }
}
