/// How a request pattern tests the URL: one of WireMock's `url`, `urlPath`, `urlPattern`, `urlPathPattern` and
/// `urlPathTemplate` fields, or none.
///
/// A plain string passed to `.get(_:)` and its siblings (see ``RequestPatternBuilding``) is ``path(_:)``
/// (`urlPath`), so query parameters are tested separately with
/// ``RequestPatternBuilding/withQueryParameter(_:_:)``.
public enum URLMatcher: Sendable, Hashable, CustomStringConvertible {
    /// Any URL (the pattern has no URL field).
    case any
    /// The path and query equal this text exactly: `"url": "/api/v2/pokemon/?offset=0&limit=20"`.
    case url(String)
    /// The path (without the query) equals this text: `"urlPath": "/api/v2/pokemon/"`.
    case path(String)
    /// The path and query match a regular expression: `"urlPattern": "/api/v2/pokemon/\\?.*"`.
    case urlPattern(String)
    /// The path matches a regular expression: `"urlPathPattern": "/api/v2/pokemon/[0-9]+/"`.
    case pathPattern(String)
    /// The path fits a template with `{name}` segments: `"urlPathTemplate": "/api/v2/pokemon/{id}/"`.
    case pathTemplate(String)

    /// The WireMock field name and value, or `nil` for ``any``.
    public var field: (name: String, value: String)? {
        switch self {
        case .any: nil
        case .url(let value): ("url", value)
        case .path(let value): ("urlPath", value)
        case .urlPattern(let value): ("urlPattern", value)
        case .pathPattern(let value): ("urlPathPattern", value)
        case .pathTemplate(let value): ("urlPathTemplate", value)
        }
    }

    /// The URL test in words: `/api/v2/pokemon/`, `any URL`, `urlPathPattern "/a/[0-9]+"`.
    public var description: String {
        switch self {
        case .any: "any URL"
        case .url(let value), .path(let value): value
        case .pathTemplate(let value): value
        case .urlPattern(let value): "urlPattern \(value.debugDescription)"
        case .pathPattern(let value): "urlPathPattern \(value.debugDescription)"
        }
    }

    /// The same test with the path's trailing `/` removed, or added when it has none, for a test that names a
    /// path (``url(_:)``, ``path(_:)``, ``pathTemplate(_:)``); `nil` for a regex or any URL, and for the path `/`.
    ///
    /// `/api/v2/pokemon/25` gives `/api/v2/pokemon/25/`; `/api/v2/pokemon/?limit=20` gives `/api/v2/pokemon?limit=20`.
    public var togglingTrailingSlash: URLMatcher? {
        func toggled(_ value: String) -> String? {
            let question = value.firstIndex(of: "?") ?? value.endIndex
            let path = value[..<question]
            guard path.count > 1 else { return nil }
            let other = path.hasSuffix("/") ? String(path.dropLast()) : path + "/"
            return other + value[question...]
        }
        switch self {
        case .url(let value): return toggled(value).map(URLMatcher.url)
        case .path(let value): return toggled(value).map(URLMatcher.path)
        case .pathTemplate(let value): return toggled(value).map(URLMatcher.pathTemplate)
        case .any, .urlPattern, .pathPattern: return nil
        }
    }
}
