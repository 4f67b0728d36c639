/// Which requests to stub, find, count or verify: WireMock's request pattern, built in Swift.
///
/// ```swift
/// let pattern = RequestPatternBuilder.get("/api/v2/pokemon/")
///     .withQueryParameter("limit", .equalTo("20"))
///     .withHeader("Accept", .contains("json"))
/// try await admin.verify(count: 1, pattern)
/// ```
///
/// ``json`` is the pattern as the admin API takes it:
/// `{"method": "GET", "urlPath": "/api/v2/pokemon/", "queryParameters": {"limit": {"equalTo": "20"}},
/// "headers": {"Accept": {"contains": "json"}}}`. Every field is optional; an empty pattern matches every
/// request.
public struct RequestPatternBuilder: RequestPatternBuilding, Hashable, CustomStringConvertible {
    /// The method, e.g. `GET`, or `ANY`.
    public var method: String
    /// The URL test.
    public var url: URLMatcher
    /// Tests on query parameters by name (names compare exactly).
    public var queryParameters: [String: ValueMatcher]
    /// Tests on header fields by name (names compare case-insensitively on the server).
    public var headers: [String: ValueMatcher]
    /// Tests on the body; all must pass.
    public var bodyPatterns: [ValueMatcher]

    /// Creates a pattern.
    ///
    /// - Parameters:
    ///   - method: The method, e.g. `GET`; `ANY` (the default) for any.
    ///   - url: The URL test; ``URLMatcher/any`` by default.
    ///   - queryParameters: Tests on query parameters by name.
    ///   - headers: Tests on header fields by name.
    ///   - bodyPatterns: Tests on the body.
    public init(
        method: String = "ANY", url: URLMatcher = .any, queryParameters: [String: ValueMatcher] = [:],
        headers: [String: ValueMatcher] = [:], bodyPatterns: [ValueMatcher] = []
    ) {
        self.method = method
        self.url = url
        self.queryParameters = queryParameters
        self.headers = headers
        self.bodyPatterns = bodyPatterns
    }

    /// Wraps a pattern, for ``RequestPatternBuilding``: a pattern is its own request pattern.
    ///
    /// - Parameter requestPattern: The pattern.
    public init(requestPattern: RequestPatternBuilder) {
        self = requestPattern
    }

    /// The pattern itself.
    public var requestPattern: RequestPatternBuilder {
        get { self }
        set { self = newValue }
    }

    /// The pattern in WireMock's JSON form, e.g. `{"method": "GET", "urlPath": "/api/v2/pokemon/"}`.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["method": .string(method)]
        if let field = url.field { members[field.name] = .string(field.value) }
        if !queryParameters.isEmpty { members["queryParameters"] = .object(queryParameters.mapValues(\.json)) }
        if !headers.isEmpty { members["headers"] = .object(headers.mapValues(\.json)) }
        if !bodyPatterns.isEmpty { members["bodyPatterns"] = .array(bodyPatterns.map(\.json)) }
        return .object(members)
    }

    /// The pattern in words, as failures print it:
    /// `GET /api/v2/pokemon/ with query limit equalTo "20", header Accept contains "json"`.
    public var description: String {
        var conditions: [String] = []
        for (name, matcher) in queryParameters.sorted(by: { $0.key < $1.key }) {
            conditions.append("query \(name) \(matcher)")
        }
        for (name, matcher) in headers.sorted(by: { $0.key < $1.key }) {
            conditions.append("header \(name) \(matcher)")
        }
        for matcher in bodyPatterns { conditions.append("body \(matcher)") }
        let head = "\(method) \(url)"
        return conditions.isEmpty ? head : head + " with " + conditions.joined(separator: ", ")
    }
}
