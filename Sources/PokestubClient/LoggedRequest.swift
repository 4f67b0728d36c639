import Foundation

/// A request the server received, as the request journal shows it (WireMock's logged request).
///
/// Reads the JSON `{"url", "absoluteUrl", "method", "clientIp", "headers", "queryParams", "body",
/// "bodyAsBase64", "loggedDate", "loggedDateString"}`.
public struct LoggedRequest: Sendable, Hashable, CustomStringConvertible {
    /// The method, e.g. `GET`.
    public var method: String
    /// The request target as sent: path and query, still percent-encoded, e.g. `/api/v2/pokemon/?limit=20`.
    public var url: String
    /// The full URL on the server, when given.
    public var absoluteURL: String?
    /// Header fields by name as sent, each with every value in order.
    public var headers: [String: [String]]
    /// Query parameters by name, each with every value in order (decoded).
    public var queryParameters: [String: [String]]
    /// The body bytes (empty when there was none).
    public var body: Data
    /// When the server received it, to the millisecond.
    public var loggedDate: Date?
    /// The client's address, when known.
    public var clientIP: String?
    /// The logged request as the server sent it.
    public var json: JSONValue

    /// Reads a logged request.
    ///
    /// - Parameter json: The logged-request object.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` when `method` or `url` is missing.
    public init(json: JSONValue) throws(PokestubClientError) {
        guard let method = json["method"]?.stringValue, let url = json["url"]?.stringValue else {
            throw .invalidJSON(what: "a logged request", reason: "missing \"method\" or \"url\"")
        }
        self.method = method
        self.url = url
        absoluteURL = json["absoluteUrl"]?.stringValue
        var headers: [String: [String]] = [:]
        for (name, value) in json["headers"]?.objectValue ?? [:] {
            headers[name] = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
        }
        self.headers = headers
        var query: [String: [String]] = [:]
        for (name, value) in json["queryParams"]?.objectValue ?? [:] {
            query[name] = value["values"]?.arrayValue?.compactMap(\.stringValue) ?? []
        }
        queryParameters = query
        if let base64 = json["bodyAsBase64"]?.stringValue, let data = Data(base64Encoded: base64) {
            body = data
        } else {
            body = Data((json["body"]?.stringValue ?? "").utf8)
        }
        loggedDate = json["loggedDate"]?.doubleValue.map { Date(timeIntervalSince1970: $0 / 1000) }
        clientIP = json["clientIp"]?.stringValue
        self.json = json
    }

    /// The path, without the query, e.g. `/api/v2/pokemon/` (still percent-encoded).
    public var path: String {
        String(url.prefix { $0 != "?" })
    }

    /// The body as UTF-8 text, or `nil` when it is not valid UTF-8.
    public var bodyText: String? {
        String(data: body, encoding: .utf8)
    }

    /// The body parsed as JSON, or `nil` when it is not JSON.
    public var bodyJSON: JSONValue? {
        try? JSONValue(parsing: body)
    }

    /// The values of a header field, comparing names case-insensitively.
    ///
    /// - Parameter name: The field name, e.g. `accept`.
    /// - Returns: Every value in order; empty when absent.
    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.key.lowercased() == name.lowercased() }.flatMap(\.value)
    }

    /// The first value of a header field, comparing names case-insensitively.
    ///
    /// - Parameter name: The field name.
    /// - Returns: The value, or `nil` when absent.
    public func header(_ name: String) -> String? {
        headerValues(name).first
    }

    /// `GET /api/v2/pokemon/?limit=20`.
    public var description: String {
        "\(method) \(url)"
    }
}
