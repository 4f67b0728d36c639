/// How a request pattern matches the URL: WireMock's `url`, `urlPath`, `urlPattern`, `urlPathPattern` and
/// `urlPathTemplate`.
///
/// Paths compare after percent-decoding once on both sides, so `/api/v2/pokemon-species/flabébé/` in a stub
/// matches a request for `/api/v2/pokemon-species/flab%C3%A9b%C3%A9/` and the other way round. `url` and
/// `urlPattern` also see the query string, as received.
public enum URLPattern: Sendable, Hashable {
    /// Path and query equal to this (decoded path, raw query).
    case url(String)
    /// Path equal to this; any query.
    case urlPath(String)
    /// Path and query match this regular expression.
    case urlPattern(StubRegex)
    /// Path matches this regular expression; any query.
    case urlPathPattern(StubRegex)
    /// Path matches this template (`/api/v2/pokemon/{id}`): each `{name}` is one non-empty segment.
    case urlPathTemplate(PathTemplate)

    /// The JSON field names, in the order the loader looks for them.
    public static let fieldNames = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"]

    /// Reads the one URL field of a request pattern.
    init(field: String, value: String) throws(StubDefinitionError) {
        do {
            switch field {
            case "url": self = .url(URLPattern.normalize(value))
            case "urlPath": self = .urlPath(URLPattern.normalize(value))
            case "urlPattern": self = .urlPattern(try StubRegex(value))
            case "urlPathPattern": self = .urlPathPattern(try StubRegex(value))
            default: self = .urlPathTemplate(try PathTemplate(value))
            }
        } catch {
            throw error.nested(under: field)
        }
    }

    /// Decodes the path part of a stub URL once, keeping the query as written.
    private static func normalize(_ value: String) -> String {
        let request = HTTPRequest(method: "GET", rawURL: value)
        return request.decodedURL
    }

    /// The JSON field name and value.
    public var field: (name: String, value: String) {
        switch self {
        case .url(let value): ("url", value)
        case .urlPath(let value): ("urlPath", value)
        case .urlPattern(let regex): ("urlPattern", regex.pattern)
        case .urlPathPattern(let regex): ("urlPathPattern", regex.pattern)
        case .urlPathTemplate(let template): ("urlPathTemplate", template.template)
        }
    }

    /// The literal path every matching request has, when there is one: the key of the stub index.
    var literalPath: String? {
        switch self {
        case .url(let value): String(value.prefix { $0 != "?" })
        case .urlPath(let value): value
        default: nil
        }
    }

    /// A literal prefix every matching path starts with, cut back to a `/`: for indexing patterns.
    ///
    /// The prefix is of the decoded path, as requests are looked up by it: `url` and `urlPattern` stop at
    /// the `?` (a `/` inside the query is not a folder of the path) and a template's literal text is decoded.
    var indexPrefix: String {
        let prefix: Substring
        switch self {
        case .url(let value): prefix = value.prefix { $0 != "?" }
        case .urlPath(let value): prefix = value[...]
        // A regex may spell its literal text percent-encoded (WireMock matches the raw path); the prefix is
        // decoded so requests, looked up by their decoded path, still find it.
        case .urlPattern(let regex):
            prefix = PercentDecoding.decode(regex.literalPrefix, keepingEncodedSlash: true).prefix { $0 != "?" }
        case .urlPathPattern(let regex):
            prefix = PercentDecoding.decode(regex.literalPrefix, keepingEncodedSlash: true)[...]
        case .urlPathTemplate(let template): prefix = template.literalPrefix[...]
        }
        guard let slash = prefix.lastIndex(of: "/") else { return "" }
        return String(prefix[...slash])
    }

    /// Whether the request's URL passes.
    func matches(_ request: HTTPRequest) -> Bool {
        switch self {
        case .url(let value): request.decodedURL == value
        case .urlPath(let value): request.path == value
        // Regexes see the decoded URL first, then the URL as received, so one written with `%C3%A9` (as
        // WireMock stubs are, since WireMock matches the raw URL) and one written with `é` both match.
        case .urlPattern(let regex):
            regex.matches(request.decodedURL)
                || (request.rawTarget != request.decodedURL && regex.matches(request.rawTarget))
        case .urlPathPattern(let regex):
            regex.matches(request.path) || (request.rawPath != request.path && regex.matches(request.rawPath))
        case .urlPathTemplate(let template): template.matches(request.path)
        }
    }

    /// How far the request's URL is from passing (0 to 1).
    func distance(_ request: HTTPRequest) -> Double {
        if matches(request) { return 0 }
        switch self {
        case .url(let value): return Levenshtein.normalizedDistance(value, request.decodedURL)
        case .urlPath(let value): return Levenshtein.normalizedDistance(value, request.path)
        case .urlPathTemplate(let template):
            return Levenshtein.normalizedDistance(template.template, request.path) * 0.9
        default: return 1
        }
    }
}

/// A path template such as `/api/v2/pokemon/{id}/`: literal segments and `{name}` placeholders, each standing
/// for exactly one non-empty segment (as WireMock's `urlPathTemplate`, after RFC 6570 level 1).
public struct PathTemplate: Sendable, Hashable {
    /// The template as written.
    public let template: String
    private let segments: [Segment]

    private enum Segment: Sendable, Hashable {
        case literal(String)
        case variable(String)
    }

    /// Parses a template.
    ///
    /// - Throws: ``StubDefinitionError`` for an unclosed `{`, an empty or repeated variable name, or a
    ///   variable that is only part of a segment.
    public init(_ template: String) throws(StubDefinitionError) {
        self.template = template
        var names = Set<String>()
        var segments: [Segment] = []
        for part in template.split(separator: "/", omittingEmptySubsequences: false) {
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                let name = String(part.dropFirst().dropLast())
                guard !name.contains("{"), !name.contains("}"), names.insert(name).inserted else {
                    throw StubDefinitionError("invalid or repeated variable {\(name)} in \(template.debugDescription)")
                }
                segments.append(.variable(name))
            } else if part.contains("{") || part.contains("}") {
                throw StubDefinitionError(
                    "a variable must be a whole path segment, like /{id}/, in \(template.debugDescription)")
            } else {
                segments.append(.literal(PercentDecoding.decode(part, keepingEncodedSlash: true)))
            }
        }
        self.segments = segments
    }

    /// The text before the first variable, percent-decoded as the literal segments are.
    var literalPrefix: String {
        PercentDecoding.decode(template.prefix { $0 != "{" }, keepingEncodedSlash: true)
    }

    /// Whether the path fits the template.
    public func matches(_ path: String) -> Bool {
        var iterator = path.split(separator: "/", omittingEmptySubsequences: false).makeIterator()
        for segment in segments {
            guard let part = iterator.next() else { return false }
            switch segment {
            case .literal(let literal): if part != literal { return false }
            case .variable: if part.isEmpty { return false }
            }
        }
        return iterator.next() == nil
    }

    /// The variables' values in `path`, or `nil` when it does not fit.
    public func variables(in path: String) -> [String: String]? {
        guard matches(path) else { return nil }
        var values: [String: String] = [:]
        for (segment, part) in zip(segments, path.split(separator: "/", omittingEmptySubsequences: false)) {
            if case .variable(let name) = segment { values[name] = String(part) }
        }
        return values
    }
}
