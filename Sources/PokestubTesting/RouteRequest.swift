import Foundation
import PokestubCore

/// The request a ``StubRoute`` handler gets, as the server received it, with the values the route's `:name`
/// segments captured.
///
/// ```swift
/// let echo = StubRoute("GET /api/v2/pokemon/:id") { request in
///     .json([
///         "id": .string(request.parameters["id"] ?? ""),
///         "limit": .string(request.queryValues("limit").first ?? "20"),
///     ])
/// }
/// ```
public struct RouteRequest: Sendable, Hashable {
    /// The request as the server's engine sees it: what the request journal keeps.
    let received: PokestubCore.HTTPRequest

    /// The values of the route's `:name` segments, by name without the colon, percent-decoded: for the route
    /// `GET /api/v2/pokemon/:id` and the request `/api/v2/pokemon/25/`, `["id": "25"]`. Empty for a route
    /// without parameters.
    public let parameters: [String: String]

    /// Creates a request, e.g. to call a handler directly in a unit test.
    ///
    /// - Parameters:
    ///   - method: The method, e.g. `GET`.
    ///   - rawURL: The request target as sent, path and query still percent-encoded, e.g.
    ///     `/api/v2/pokemon/?offset=20&limit=20`.
    ///   - headers: The header fields.
    ///   - body: The body bytes.
    ///   - parameters: The values of the route's `:name` segments.
    public init(
        method: String, rawURL: String, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(),
        parameters: [String: String] = [:]
    ) {
        self.init(
            received: PokestubCore.HTTPRequest(method: method, rawURL: rawURL, headers: headers, body: body),
            parameters: parameters)
    }

    init(received: PokestubCore.HTTPRequest, parameters: [String: String]) {
        self.received = received
        self.parameters = parameters
    }

    /// The method as sent, e.g. `GET`.
    public var method: String { received.method }

    /// The request target as sent: path and query, still percent-encoded.
    public var rawURL: String { received.rawURL }

    /// The path, percent-decoded once (`%2F` stays encoded so segments keep their boundaries), e.g.
    /// `/api/v2/pokemon/25/`.
    public var path: String { received.path }

    /// The header fields in the order received; ``HTTPHeaders`` compares names case-insensitively.
    public var headers: HTTPHeaders { received.headers }

    /// The body bytes; empty when there was none.
    public var body: Data { received.body }

    /// The body as UTF-8 text, or `nil` when it is not valid UTF-8.
    public var bodyText: String? { received.bodyText }

    /// The query parameters in order, names and values percent-decoded with `+` read as a space.
    public var queryParameters: [(name: String, value: String)] { received.queryParameters }

    /// Every value of the query parameter `name`, in order (names compare exactly).
    ///
    /// - Parameter name: The parameter name, e.g. `limit`.
    /// - Returns: Its values; empty when the request has none.
    public func queryValues(_ name: String) -> [String] {
        received.queryValues(name)
    }

    /// The same request with the values a route captured.
    func with(parameters: [String: String]) -> RouteRequest {
        RouteRequest(received: received, parameters: parameters)
    }
}
