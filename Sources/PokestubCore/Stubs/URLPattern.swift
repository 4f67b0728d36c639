/// How a request pattern matches the URL: WireMock's `url`, `urlPath`, `urlPattern`, `urlPathPattern` and
/// `urlPathTemplate`.
///
/// `url`, `urlPath` and `urlPathTemplate` compare RFC 3986 §6.2.2 normal forms (``URINormalForm``) byte for
/// byte: hex digits of escapes in any case, `%7E` equal to `~`, but `%26` never equal to `&`; a stub may
/// write `/api/v2/pokemon-species/flabébé/` for a request's `/api/v2/pokemon-species/flab%C3%A9b%C3%A9/`, and a
/// decomposed `e%CC%81` is not a precomposed `%C3%A9`. `url` also compares the query. The regexes see the
/// decoded path first, then the path as received.
package enum URLPattern: Sendable, Hashable {
    /// Path and query equal to this (normal form).
    case url(String)
    /// Path equal to this (normal form); any query.
    case urlPath(String)
    /// Path and query match this regular expression.
    case urlPattern(StubRegex)
    /// Path matches this regular expression; any query.
    case urlPathPattern(StubRegex)
    /// Path matches this template (`/api/v2/pokemon/{id}`): each `{name}` is one non-empty segment.
    case urlPathTemplate(PathTemplate)

    /// The JSON field names, in the order the loader looks for them.
    package static let fieldNames = ["url", "urlPath", "urlPattern", "urlPathPattern", "urlPathTemplate"]

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

    /// A stub URL in its RFC 3986 §6.2.2 normal form, path and query, as requests are compared.
    ///
    /// A value that does not start with `/` (an absolute URL such as `http://localhost:8080/my/path`) is
    /// kept as written: WireMock compares `url` and `urlPath` literally with the request's path, so such a
    /// stub matches no request, and must not match `/my/path`.
    private static func normalize(_ value: String) -> String {
        guard value.hasPrefix("/") else { return value }
        return HTTPRequest(method: "GET", rawURL: value).normalizedURL
    }

    /// The JSON field name and value.
    package var field: (name: String, value: String) {
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
    /// The prefix is of the path's normal form, as requests are looked up by it: `url` and `urlPattern` stop
    /// at the `?` (a `/` inside the query is not a folder of the path).
    var indexPrefix: String {
        let prefix: Substring
        switch self {
        case .url(let value): prefix = value.prefix { $0 != "?" }
        case .urlPath(let value): prefix = value[...]
        // A regex may spell its literal text percent-encoded (WireMock matches the raw path) or decoded; the
        // prefix is in normal form either way, so requests, looked up by their path's normal form, find it.
        case .urlPattern(let regex):
            prefix = URINormalForm.normalize(regex.literalPrefix).prefix { $0 != "?" }
        case .urlPathPattern(let regex):
            prefix = URINormalForm.normalize(regex.literalPrefix)[...]
        case .urlPathTemplate(let template): prefix = template.literalPrefix[...]
        }
        guard let slash = prefix.lastIndex(of: "/") else { return "" }
        return String(prefix[...slash])
    }

    /// Whether the request's URL passes.
    func matches(_ request: HTTPRequest) -> Bool {
        switch self {
        case .url(let value): request.normalizedURL.hasSameUTF8(as: value)
        case .urlPath(let value): request.normalizedPath.hasSameUTF8(as: value)
        // Regexes see the decoded URL first, then the URL as received, so one written with `%C3%A9` (as
        // WireMock stubs are, since WireMock matches the raw URL) and one written with `é` both match.
        case .urlPattern(let regex):
            regex.matches(request.decodedURL)
                || (request.rawTarget != request.decodedURL && regex.matches(request.rawTarget))
        case .urlPathPattern(let regex):
            regex.matches(request.path) || (request.rawPath != request.path && regex.matches(request.rawPath))
        case .urlPathTemplate(let template): template.matches(request.normalizedPath)
        }
    }

    /// How far the request's URL is from passing (0 to 1).
    func distance(_ request: HTTPRequest) -> Double {
        if matches(request) { return 0 }
        switch self {
        case .url(let value): return Levenshtein.normalizedDistance(value, request.normalizedURL)
        case .urlPath(let value): return Levenshtein.normalizedDistance(value, request.normalizedPath)
        case .urlPathTemplate(let template):
            return Levenshtein.normalizedDistance(template.template, request.normalizedPath) * 0.9
        default: return 1
        }
    }
}

/// A path template such as `/api/v2/pokemon/{id}/`: literal segments and `{name}` placeholders, each standing
/// for exactly one non-empty segment (as WireMock's `urlPathTemplate`, after RFC 6570 level 1).
package struct PathTemplate: Sendable, Hashable {
    /// The template as written.
    package let template: String
    private let segments: [Segment]

    private enum Segment: Sendable, Hashable {
        case literal(String)
        case variable(String)
    }

    /// Parses a template.
    ///
    /// - Throws: ``StubDefinitionError`` for an unclosed `{`, an empty or repeated variable name, or a
    ///   variable that is only part of a segment.
    /// Braces are looked for as characters: Foundation's `contains` with a string argument (a search through
    /// `NSString`) took 100 million instructions, 6% of a start with 10,000 stubs (a third of them templates).
    package init(_ template: String) throws(StubDefinitionError) {
        self.template = template
        var names = Set<String>()
        var segments: [Segment] = []
        for part in template.split(separator: "/", omittingEmptySubsequences: false) {
            if part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2 {
                let name = String(part.dropFirst().dropLast())
                guard !name.contains(Character("{")), !name.contains(Character("}")), names.insert(name).inserted
                else {
                    throw StubDefinitionError("invalid or repeated variable {\(name)} in \(template.debugDescription)")
                }
                segments.append(.variable(name))
            } else if part.contains(Character("{")) || part.contains(Character("}")) {
                throw StubDefinitionError(
                    "a variable must be a whole path segment, like /{id}/, in \(template.debugDescription)")
            } else {
                segments.append(.literal(URINormalForm.normalize(part)))
            }
        }
        self.segments = segments
    }

    /// The text before the first variable, in normal form as the literal segments are.
    var literalPrefix: String {
        URINormalForm.normalize(template.prefix { $0 != "{" })
    }

    /// Whether the path (in normal form, ``HTTPRequest/normalizedPath``) fits the template.
    package func matches(_ path: String) -> Bool {
        var iterator = path.split(separator: "/", omittingEmptySubsequences: false).makeIterator()
        for segment in segments {
            guard let part = iterator.next() else { return false }
            switch segment {
            case .literal(let literal): if !part.hasSameUTF8(as: literal) { return false }
            case .variable: if part.isEmpty { return false }
            }
        }
        return iterator.next() == nil
    }

    /// The variables' values in `path`, or `nil` when it does not fit.
    package func variables(in path: String) -> [String: String]? {
        guard matches(path) else { return nil }
        var values: [String: String] = [:]
        for (segment, part) in zip(segments, path.split(separator: "/", omittingEmptySubsequences: false)) {
            if case .variable(let name) = segment { values[name] = String(part) }
        }
        return values
    }
}
