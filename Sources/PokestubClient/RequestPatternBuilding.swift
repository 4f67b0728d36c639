/// A builder that carries a request pattern: ``RequestPatternBuilder`` for finding and verifying, and
/// ``StubBuilder`` for stubbing. Both get the same vocabulary:
///
/// ```swift
/// let stub = StubBuilder.get("/api/v2/pokemon/").withQueryParameter("limit", .equalTo("20"))
/// let pattern = RequestPatternBuilder.post("/api/v2/team").withRequestBody(.matchesJsonPath("$.name"))
/// ```
public protocol RequestPatternBuilding: Sendable {
    /// The request pattern built so far.
    var requestPattern: RequestPatternBuilder { get set }

    /// Creates a builder around a request pattern.
    ///
    /// - Parameter requestPattern: The pattern.
    init(requestPattern: RequestPatternBuilder)
}

extension RequestPatternBuilding {
    /// A request with this method and URL test.
    ///
    /// - Parameters:
    ///   - method: The method, e.g. `GET`, or `ANY`.
    ///   - url: The URL test.
    /// - Returns: The builder.
    public static func request(method: String, _ url: URLMatcher) -> Self {
        Self(requestPattern: RequestPatternBuilder(method: method, url: url))
    }

    /// `GET` with this path (`urlPath`; test the query with ``withQueryParameter(_:_:)``).
    ///
    /// - Parameter path: The path, e.g. `/api/v2/pokemon/`. PokeAPI's canonical paths end in `/`. The whole
    ///   path is compared, trailing `/` included, as WireMock's `urlPath` is (a `StubRoute` ignores it).
    /// - Returns: The builder.
    public static func get(_ path: String) -> Self { request(method: "GET", .path(path)) }
    /// `GET` with this URL test.
    ///
    /// - Parameter url: The URL test, e.g. `.pathTemplate("/api/v2/pokemon/{id}/")`.
    /// - Returns: The builder.
    public static func get(_ url: URLMatcher) -> Self { request(method: "GET", url) }
    /// `POST` with this path (`urlPath`).
    ///
    /// - Parameter path: The path.
    /// - Returns: The builder.
    public static func post(_ path: String) -> Self { request(method: "POST", .path(path)) }
    /// `POST` with this URL test.
    ///
    /// - Parameter url: The URL test.
    /// - Returns: The builder.
    public static func post(_ url: URLMatcher) -> Self { request(method: "POST", url) }
    /// `PUT` with this path (`urlPath`).
    ///
    /// - Parameter path: The path.
    /// - Returns: The builder.
    public static func put(_ path: String) -> Self { request(method: "PUT", .path(path)) }
    /// `PUT` with this URL test.
    ///
    /// - Parameter url: The URL test.
    /// - Returns: The builder.
    public static func put(_ url: URLMatcher) -> Self { request(method: "PUT", url) }
    /// `PATCH` with this path (`urlPath`).
    ///
    /// - Parameter path: The path.
    /// - Returns: The builder.
    public static func patch(_ path: String) -> Self { request(method: "PATCH", .path(path)) }
    /// `PATCH` with this URL test.
    ///
    /// - Parameter url: The URL test.
    /// - Returns: The builder.
    public static func patch(_ url: URLMatcher) -> Self { request(method: "PATCH", url) }
    /// `DELETE` with this path (`urlPath`).
    ///
    /// - Parameter path: The path.
    /// - Returns: The builder.
    public static func delete(_ path: String) -> Self { request(method: "DELETE", .path(path)) }
    /// `DELETE` with this URL test.
    ///
    /// - Parameter url: The URL test.
    /// - Returns: The builder.
    public static func delete(_ url: URLMatcher) -> Self { request(method: "DELETE", url) }
    /// Any method with this path (`urlPath`).
    ///
    /// - Parameter path: The path.
    /// - Returns: The builder.
    public static func any(_ path: String) -> Self { request(method: "ANY", .path(path)) }
    /// Any method with this URL test; `.any(.any)` matches every request.
    ///
    /// - Parameter url: The URL test.
    /// - Returns: The builder.
    public static func any(_ url: URLMatcher) -> Self { request(method: "ANY", url) }

    /// Adds a test on a query parameter (replacing an earlier one for the same name).
    ///
    /// A repeated parameter passes when any of its values passes; ``ValueMatcher/hasExactly(_:)`` and
    /// ``ValueMatcher/includes(_:)`` test all its values. Use ``ValueMatcher/absent`` to require that it is
    /// missing.
    ///
    /// - Parameters:
    ///   - name: The parameter name, compared exactly.
    ///   - matcher: The test on its value.
    /// - Returns: The builder with the test added.
    public func withQueryParameter(_ name: String, _ matcher: ValueMatcher) -> Self {
        var copy = self
        copy.requestPattern.queryParameters[name] = matcher
        return copy
    }

    /// Adds a test on a header field (replacing an earlier one for the same name).
    ///
    /// - Parameters:
    ///   - name: The field name; the server compares names case-insensitively.
    ///   - matcher: The test on its value.
    /// - Returns: The builder with the test added.
    public func withHeader(_ name: String, _ matcher: ValueMatcher) -> Self {
        var copy = self
        copy.requestPattern.headers[name] = matcher
        return copy
    }

    /// Adds a test on the body (`bodyPatterns`); every body test must pass.
    ///
    /// - Parameter matcher: The test, e.g. `.equalToJson(["name": "bulbasaur"])`.
    /// - Returns: The builder with the test added.
    public func withRequestBody(_ matcher: ValueMatcher) -> Self {
        var copy = self
        copy.requestPattern.bodyPatterns.append(matcher)
        return copy
    }
}
