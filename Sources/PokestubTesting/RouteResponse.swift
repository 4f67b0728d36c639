import Foundation
import PokestubClient
import PokestubCore

/// What a ``StubRoute`` handler answers: a status (200 unless given), header fields, body bytes, and
/// optionally a delay or a deliberate failure.
///
/// ```swift
/// let created = RouteResponse(status: 201)
/// let plain = RouteResponse(body: "plain bytes")
/// let page = RouteResponse.json(["count": 0, "next": nil, "previous": nil, "results": []])
/// let missing = RouteResponse.text("Not Found", status: 404)
/// let image = RouteResponse.data(pngBytes, contentType: "image/png")
/// let stored = try RouteResponse.file(file)  // a file URL, read now
/// ```
///
/// The server sets `Content-Length` from the body; the factories set `Content-Type`.
public struct RouteResponse: Sendable {
    /// The status code, 100 to 599; 200 unless given.
    public var status: Int
    /// Header fields to send besides `Content-Length`, which the server sets itself.
    public var headers: HTTPHeaders
    /// The body bytes; empty by default.
    public var body: Data
    /// How long the server waits before answering (WireMock's `fixedDelayMilliseconds`); it holds none of its
    /// threads meanwhile. Counted in whole milliseconds; `.zero` by default.
    public var delay: Duration
    /// A deliberate failure instead of a response (WireMock's `fault`), or `nil`.
    public var fault: Fault?

    /// Ways to fail on purpose, named as in WireMock's `fault` field: PokestubClient's
    /// `StubResponse.Fault`, so a closure route and an admin-API stub spell a fault alike.
    public typealias Fault = StubResponse.Fault

    /// Creates a response with body bytes.
    ///
    /// - Parameters:
    ///   - status: The status code; 200 by default.
    ///   - headers: Header fields; none by default.
    ///   - body: The body bytes; empty by default.
    ///   - delay: A delay before answering; none by default.
    ///   - fault: A deliberate failure instead of a response.
    public init(
        status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(), delay: Duration = .zero,
        fault: Fault? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
        self.fault = fault
    }

    /// Creates a response whose body is text, sent as UTF-8, without a `Content-Type` (``text(_:status:contentType:)``
    /// sets one).
    ///
    /// - Parameters:
    ///   - status: The status code; 200 by default.
    ///   - headers: Header fields; none by default.
    ///   - body: The text.
    ///   - delay: A delay before answering; none by default.
    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: String, delay: Duration = .zero) {
        self.init(status: status, headers: headers, body: Data(body.utf8), delay: delay)
    }

    /// Creates a response from the server's body type and a delay in milliseconds.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Header fields.
    ///   - body: The body.
    ///   - delayMilliseconds: A delay before answering, in milliseconds.
    ///   - fault: A deliberate failure instead of a response.
    @available(*, deprecated, message: "pass the body as Data or String, and the delay as a Duration")
    public init(
        status: Int, headers: HTTPHeaders = HTTPHeaders(), body: PokestubCore.ResponseBody, delayMilliseconds: Int = 0,
        fault: Fault? = nil
    ) {
        self.init(
            status: status, headers: headers, body: body.data, delay: .milliseconds(delayMilliseconds), fault: fault)
    }

    /// A JSON response with `Content-Type: application/json`.
    ///
    /// - Parameters:
    ///   - value: The document, written as a literal (`["count": 0]`) or with `JSONValue`'s cases.
    ///   - status: The status code; 200 by default.
    ///   - pretty: Whether to indent the text; keys are sorted either way.
    /// - Returns: The response.
    public static func json(_ value: JSONValue, status: Int = 200, pretty: Bool = true) -> RouteResponse {
        RouteResponse(
            status: status, headers: HTTPHeaders([(name: "Content-Type", value: "application/json")]),
            body: value.serialized(pretty: pretty))
    }

    /// A JSON response made by encoding a value, e.g. one of the app's own models, with
    /// `Content-Type: application/json`.
    ///
    /// ```swift
    /// let encoder = JSONEncoder()
    /// encoder.keyEncodingStrategy = .convertToSnakeCase
    /// let pikachu = StubRoute("GET /api/v2/pokemon/25") { _ in
    ///     try .json(encoding: Pokemon.pikachu, encoder: encoder)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - status: The status code; 200 by default.
    ///   - encoder: The encoder; set its key strategy to match the API (PokeAPI uses snake case).
    /// - Returns: The response.
    /// - Throws: `PokestubClientError.invalidJSON(what:reason:)` when the value cannot be encoded; thrown from
    ///   a handler, it answers 500 with its description.
    public static func json(
        encoding value: some Encodable, status: Int = 200, encoder: JSONEncoder = JSONEncoder()
    ) throws(PokestubClientError) -> RouteResponse {
        json(try JSONValue(encoding: value, encoder: encoder), status: status)
    }

    /// A text response.
    ///
    /// - Parameters:
    ///   - text: The body, sent as UTF-8.
    ///   - status: The status code; 200 by default.
    ///   - contentType: The `Content-Type`; `text/plain; charset=utf-8` by default.
    /// - Returns: The response.
    public static func text(
        _ text: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8"
    ) -> RouteResponse {
        RouteResponse(
            status: status, headers: HTTPHeaders([(name: "Content-Type", value: contentType)]), body: Data(text.utf8))
    }

    /// A binary response, e.g. a sprite image.
    ///
    /// - Parameters:
    ///   - data: The body bytes.
    ///   - status: The status code; 200 by default.
    ///   - contentType: The `Content-Type`; `application/octet-stream` by default.
    /// - Returns: The response.
    public static func data(
        _ data: Data, status: Int = 200, contentType: String = "application/octet-stream"
    ) -> RouteResponse {
        RouteResponse(status: status, headers: HTTPHeaders([(name: "Content-Type", value: contentType)]), body: data)
    }

    /// A response whose body is a file's contents, read when this is called.
    ///
    /// - Parameters:
    ///   - url: A file URL, e.g. `URL(fileURLWithPath: "/path/to/stubs/__files/pokemon/25.json")`.
    ///   - status: The status code; 200 by default.
    ///   - contentType: The `Content-Type`; by default taken from the file's extension (`json`, `txt`, `html`,
    ///     `png`, `jpg`, `svg`), else `application/octet-stream`.
    /// - Returns: The response.
    /// - Throws: The error `Data(contentsOf:)` throws when the file cannot be read; thrown from a handler, it
    ///   answers 500 with its description.
    public static func file(_ url: URL, status: Int = 200, contentType: String? = nil) throws -> RouteResponse {
        let bytes = try Data(contentsOf: url)
        return data(
            bytes, status: status, contentType: contentType ?? RouteResponse.contentType(ofExtension: url.pathExtension)
        )
    }

    /// The `Content-Type` for a file extension, for ``file(_:status:contentType:)``.
    static func contentType(ofExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "json": "application/json"
        case "txt": "text/plain; charset=utf-8"
        case "html", "htm": "text/html; charset=utf-8"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }

    /// The answer to a request whose handler threw: 500 with the error's description as plain text.
    static func failure(_ error: any Error) -> RouteResponse {
        text(String(describing: error), status: 500)
    }

    /// The response as the server sends it.
    var served: PokestubCore.HTTPResponse {
        let milliseconds = delay.components.seconds * 1000 + delay.components.attoseconds / 1_000_000_000_000_000
        return PokestubCore.HTTPResponse(
            status: status, headers: headers, body: PokestubCore.ResponseBody(body),
            delayMilliseconds: Int(clamping: max(0, milliseconds)),
            fault: fault.flatMap { PokestubCore.HTTPResponse.Fault(rawValue: $0.rawValue) })
    }
}
