import Foundation
import PokestubCore

/// A route answered by a Swift closure instead of a stub, like the route/handler pairs of FlyingFox's
/// `HTTPServer`.
///
/// ```swift
/// StubRoute("GET /api/v2/pokemon") { request in
///     .json(["count": 0, "next": nil, "previous": nil, "results": []])
/// }
/// ```
///
/// The route text is `METHOD /path` or just `/path` (any method; `*` and `ANY` also mean any method):
/// - Path segments compare exactly with the request's percent-decoded path, ignoring empty segments, so
///   `/api/v2/pokemon` also answers `/api/v2/pokemon/` (PokeAPI's canonical form).
/// - A `*` segment matches any one segment; a `*` as the last segment matches one or more segments.
/// - An optional query, `?limit=20&offset`, requires each named parameter: with that value, or with any
///   value when no `=value` (or `=*`) is given. Other parameters are allowed.
///
/// Routes are tried before the stubs, in the order they were added; the first that matches answers.
public struct StubRoute: Sendable, CustomStringConvertible {
    /// The method, upper-cased, or `nil` for any.
    public let method: String?
    /// The path as written in the route.
    public let path: String
    /// Query parameters the request must have: name and required value, or `nil` for any value.
    public let query: [(name: String, value: String?)]
    /// The id the request journal records as the answering "stub" for requests this route answers.
    public let id: UUID
    let responder: Responder

    enum Responder: Sendable {
        case immediate(@Sendable (HTTPRequest) -> HTTPResponse)
        case eventual(@Sendable (HTTPRequest) async -> HTTPResponse)
    }

    private let segments: [Substring]

    /// Creates a route answered synchronously, on the server's thread. Keep the closure quick; it must not
    /// block on I/O.
    ///
    /// - Parameters:
    ///   - route: `METHOD /path` or `/path`, e.g. `GET /api/v2/pokemon`.
    ///   - handler: Turns the request into the response, e.g. `{ _ in .json(["ok": true]) }`.
    public init(_ route: String, handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse) {
        self.init(route: route, responder: .immediate(handler))
    }

    /// Creates a route answered by an async closure. The server holds none of its threads while the closure
    /// runs.
    ///
    /// - Parameters:
    ///   - route: `METHOD /path` or `/path`, e.g. `POST /api/v2/team`.
    ///   - handler: Turns the request into the response.
    public init(_ route: String, asyncHandler handler: @escaping @Sendable (HTTPRequest) async -> HTTPResponse) {
        self.init(route: route, responder: .eventual(handler))
    }

    private init(route: String, responder: Responder) {
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
        self.responder = responder
    }

    /// Whether the route answers a request.
    ///
    /// - Parameter request: The request.
    /// - Returns: Whether method, path and the route's query parameters all fit.
    public func matches(_ request: HTTPRequest) -> Bool {
        if let method, method != request.method { return false }
        let requestSegments = request.path.split(separator: "/", omittingEmptySubsequences: true)
        for (position, segment) in segments.enumerated() {
            let isLast = position == segments.count - 1
            if segment == "*" && isLast { return requestSegments.count > position && queryMatches(request) }
            guard position < requestSegments.count else { return false }
            if segment != "*" && segment != requestSegments[position] { return false }
        }
        return requestSegments.count == segments.count && queryMatches(request)
    }

    private func queryMatches(_ request: HTTPRequest) -> Bool {
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
