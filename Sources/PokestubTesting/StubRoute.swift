import Foundation

/// A route answered by a Swift closure instead of a stub, like the routes of FlyingFox's `HTTPServer`.
///
/// ```swift
/// let pokemon = StubRoute("GET /api/v2/pokemon/:id") { request in
///     guard let id = request.parameters["id"], let number = Int(id) else { return .text("no id", status: 400) }
///     return .json(["id": .integer(Int64(number)), "name": "pokemon \(id)"])
/// }
/// ```
///
/// The route text is `METHOD /path` or just `/path` (any method; `*` and `ANY` also mean any method):
/// - Path segments compare exactly with the request's percent-decoded path, ignoring empty segments, so
///   `/api/v2/pokemon` also answers `/api/v2/pokemon/` (PokeAPI's canonical form). A request pattern's path
///   (`.get("/api/v2/pokemon")` in `verify`, `urlPath` in a stub) follows WireMock's rule instead and compares
///   the whole path, trailing slash included; a verification that fails only for that says so first.
/// - A `:name` segment matches any one segment and hands its value to the handler as
///   `request.parameters["name"]`.
/// - A `*` segment matches any one segment; a `*` as the last segment matches one or more segments.
/// - An optional query, `?limit=20&offset`, requires each named parameter: with that value, or with any
///   value when no `=value` (or `=*`) is given. Other parameters are allowed.
///
/// Routes are tried before the stubs, in the order they were added; the first that matches answers. The
/// handler runs in a task of its own, so it may `await`; the server holds none of its threads meanwhile. When
/// it throws, the request is answered 500 with the error's description as plain text. Either way the request
/// journal records the request with the route as its stub (`route GET /api/v2/pokemon/:id`).
public struct StubRoute: Sendable, CustomStringConvertible {
    /// The method, upper-cased, or `nil` for any.
    public let method: String?
    /// The path as written in the route, e.g. `/api/v2/pokemon/:id`.
    public let path: String
    /// Query parameters the request must have: name and required value, or `nil` for any value.
    public let query: [(name: String, value: String?)]
    /// The id the request journal records as the answering "stub" for requests this route answers.
    public let id: UUID
    /// Turns the request into the response.
    let handler: @Sendable (RouteRequest) async throws -> RouteResponse

    private let segments: [Substring]

    /// Creates a route answered by a closure.
    ///
    /// - Parameters:
    ///   - route: `METHOD /path` or `/path`, e.g. `GET /api/v2/pokemon/:id`.
    ///   - handler: Turns the request into the response, e.g. `{ _ in .json(["ok": true]) }`. It may `await`
    ///     and `throw`; a thrown error answers 500 with its description.
    public init(_ route: String, handler: @escaping @Sendable (RouteRequest) async throws -> RouteResponse) {
        let parts = route.trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: true)
        var target = Substring(route.trimmingCharacters(in: .whitespaces))
        var method: String?
        if parts.count >= 2 {
            let word = parts[0].uppercased()
            method = (word == "*" || word == "ANY") ? nil : word
            target = parts[1...].joined(separator: " ")[...]
        }
        self.method = method
        if let question = target.firstIndex(of: "?") {
            path = String(target[..<question])
            query = target[target.index(after: question)...].split(separator: "&").map { item in
                guard let equals = item.firstIndex(of: "=") else { return (name: String(item), value: nil) }
                let value = String(item[item.index(after: equals)...])
                return (name: String(item[..<equals]), value: value == "*" ? nil : value)
            }
        } else {
            path = String(target)
            query = []
        }
        segments = path.split(separator: "/", omittingEmptySubsequences: true)
        id = UUID()
        self.handler = handler
    }

    /// Creates a route answered by an async closure.
    ///
    /// - Parameters:
    ///   - route: `METHOD /path` or `/path`, e.g. `POST /api/v2/team`.
    ///   - handler: Turns the request into the response.
    @available(*, deprecated, renamed: "init(_:handler:)", message: "the handler: closure may be async and throw")
    @_disfavoredOverload
    public init(_ route: String, asyncHandler handler: @escaping @Sendable (RouteRequest) async -> RouteResponse) {
        self.init(route, handler: handler)
    }

    /// Whether the route answers a request.
    ///
    /// - Parameter request: The request.
    /// - Returns: Whether method, path and the route's query parameters all fit.
    public func matches(_ request: RouteRequest) -> Bool {
        parameters(of: request) != nil
    }

    /// The values of the route's `:name` segments in a request, or `nil` when the route does not answer it.
    ///
    /// - Parameter request: The request.
    /// - Returns: The captured values by name (empty for a route without `:name` segments), or `nil` when
    ///   method, path or the route's query parameters do not fit.
    public func parameters(of request: RouteRequest) -> [String: String]? {
        if let method, method != request.method { return nil }
        let requestSegments = request.path.split(separator: "/", omittingEmptySubsequences: true)
        var captured: [String: String] = [:]
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            if segment == "*" && isLast {
                return requestSegments.count > position && queryMatches(request) ? captured : nil
            }
            guard position < requestSegments.count else { return nil }
            if segment.hasPrefix(":") && segment.count > 1 {
                captured[String(segment.dropFirst())] = String(requestSegments[position])
            } else if segment != "*" && segment != requestSegments[position] {
                return nil
            }
        }
        return requestSegments.count == segments.count && queryMatches(request) ? captured : nil
    }

    private func queryMatches(_ request: RouteRequest) -> Bool {
        query.allSatisfy { item in
            let values = request.queryValues(item.name)
            guard let wanted = item.value else { return !values.isEmpty }
            return values.contains(wanted)
        }
    }

    /// `GET /api/v2/pokemon`, or `ANY /path` for a route without a method.
    public var description: String {
        let queryText =
            query.isEmpty
            ? ""
            : "?" + query.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }.joined(separator: "&")
        return "\(method ?? "ANY") \(path)\(queryText)"
    }
}
