import Foundation

/// What a stub answers: WireMock's response definition, built in Swift.
///
/// ```swift
/// let list = StubResponse.json(["count": 1, "results": [["name": "bulbasaur"]]])
/// let missing = StubResponse.text("Not Found", status: 404).withFixedDelay(.milliseconds(250))
/// let reset = StubResponse.fault(.connectionResetByPeer)
/// ```
///
/// ``json`` is the definition as the admin API takes it, e.g.
/// `{"status": 200, "headers": {"Content-Type": "application/json"}, "jsonBody": {...}}`.
public struct StubResponse: Sendable, Hashable {
    /// The status code, 100 to 599.
    public var status: Int
    /// Header fields to send, by name.
    public var headers: [String: String]
    /// The body, or `nil` for an empty one.
    public var body: Body?
    /// How long the server waits before answering, in milliseconds (`fixedDelayMilliseconds`).
    public var fixedDelayMilliseconds: Int?
    /// A deliberate failure instead of a response (`fault`).
    public var fault: Fault?

    /// A response body, in one of WireMock's four forms.
    public enum Body: Sendable, Hashable {
        /// Text sent as UTF-8 (`body`).
        case text(String)
        /// A JSON document (`jsonBody`), kept as JSON in the mapping rather than as an escaped string.
        case json(JSONValue)
        /// Bytes (`base64Body`).
        case data(Data)
        /// A file under the stub root's `__files/` folder (`bodyFileName`), e.g. `pokemon/1.json`.
        case file(String)
    }

    /// Ways to fail on purpose, named as in WireMock's `fault` field.
    public enum Fault: String, Sendable, Hashable, CaseIterable {
        /// Close the connection without sending anything.
        case emptyResponse = "EMPTY_RESPONSE"
        /// Close the connection abruptly; the client sees a reset.
        case connectionResetByPeer = "CONNECTION_RESET_BY_PEER"
    }

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code; 200 by default.
    ///   - headers: Header fields by name.
    ///   - body: The body, or `nil` for none.
    ///   - fixedDelayMilliseconds: A delay before answering, in milliseconds.
    ///   - fault: A deliberate failure instead of a response.
    public init(
        status: Int = 200, headers: [String: String] = [:], body: Body? = nil, fixedDelayMilliseconds: Int? = nil,
        fault: Fault? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.fixedDelayMilliseconds = fixedDelayMilliseconds
        self.fault = fault
    }

    /// A response with a status and no body.
    ///
    /// - Parameter status: The status code, e.g. 204 or 404.
    /// - Returns: The response.
    public static func status(_ status: Int) -> StubResponse {
        StubResponse(status: status)
    }

    /// A JSON response (`jsonBody`) with `Content-Type: application/json`.
    ///
    /// - Parameters:
    ///   - body: The document.
    ///   - status: The status code; 200 by default.
    /// - Returns: The response.
    public static func json(_ body: JSONValue, status: Int = 200) -> StubResponse {
        StubResponse(status: status, headers: ["Content-Type": "application/json"], body: .json(body))
    }

    /// A JSON response made by encoding a value, e.g. one of the app's own models.
    ///
    /// - Parameters:
    ///   - value: The value to encode.
    ///   - status: The status code; 200 by default.
    ///   - encoder: The encoder; set its key strategy to match the API (PokeAPI uses snake case).
    /// - Returns: The response.
    /// - Throws: ``PokestubClientError/invalidJSON(what:reason:)`` when the value cannot be encoded.
    public static func json(
        encoding value: some Encodable, status: Int = 200, encoder: JSONEncoder = JSONEncoder()
    ) throws(PokestubClientError) -> StubResponse {
        json(try JSONValue(encoding: value, encoder: encoder), status: status)
    }

    /// A text response (`body`).
    ///
    /// - Parameters:
    ///   - body: The text.
    ///   - status: The status code; 200 by default.
    ///   - contentType: The `Content-Type`; `text/plain; charset=utf-8` by default.
    /// - Returns: The response.
    public static func text(
        _ body: String, status: Int = 200, contentType: String = "text/plain; charset=utf-8"
    ) -> StubResponse {
        StubResponse(status: status, headers: ["Content-Type": contentType], body: .text(body))
    }

    /// A binary response (`base64Body`), e.g. a sprite image.
    ///
    /// - Parameters:
    ///   - body: The bytes.
    ///   - status: The status code; 200 by default.
    ///   - contentType: The `Content-Type`, e.g. `image/png`.
    /// - Returns: The response.
    public static func data(
        _ body: Data, status: Int = 200, contentType: String = "application/octet-stream"
    ) -> StubResponse {
        StubResponse(status: status, headers: ["Content-Type": contentType], body: .data(body))
    }

    /// A response whose body is a file under the stub root's `__files/` (`bodyFileName`).
    ///
    /// - Parameters:
    ///   - name: The path under `__files/`, e.g. `pokemon/1.json`. The server reads it when the stub is added,
    ///     and refuses the stub when it does not exist.
    ///   - status: The status code; 200 by default.
    ///   - contentType: The `Content-Type`, when one should be sent.
    /// - Returns: The response.
    public static func file(_ name: String, status: Int = 200, contentType: String? = nil) -> StubResponse {
        StubResponse(status: status, headers: contentType.map { ["Content-Type": $0] } ?? [:], body: .file(name))
    }

    /// No response at all, but a deliberate failure (`fault`).
    ///
    /// - Parameter fault: How to fail.
    /// - Returns: The response.
    public static func fault(_ fault: Fault) -> StubResponse {
        StubResponse(fault: fault)
    }

    /// The same response with another status.
    ///
    /// - Parameter status: The status code.
    /// - Returns: The changed response.
    public func withStatus(_ status: Int) -> StubResponse {
        var copy = self
        copy.status = status
        return copy
    }

    /// The same response with a header field set (replacing one with the same name).
    ///
    /// - Parameters:
    ///   - name: The field name.
    ///   - value: The value.
    /// - Returns: The changed response.
    public func withHeader(_ name: String, _ value: String) -> StubResponse {
        var copy = self
        if let existing = copy.headers.keys.first(where: { $0.lowercased() == name.lowercased() }) {
            copy.headers.removeValue(forKey: existing)
        }
        copy.headers[name] = value
        return copy
    }

    /// The same response sent after a delay (`fixedDelayMilliseconds`).
    ///
    /// - Parameter delay: The delay, up to 10 minutes (the server's limit), sent in whole milliseconds rounded
    ///   up, e.g. `.milliseconds(250)` or `.seconds(2)`.
    /// - Returns: The changed response.
    public func withFixedDelay(_ delay: Duration) -> StubResponse {
        var copy = self
        copy.fixedDelayMilliseconds = StubResponse.wholeMilliseconds(delay)
        return copy
    }

    /// The same response sent after a delay in milliseconds.
    ///
    /// - Parameter milliseconds: The delay, 0 to 600,000 ms (the server's limit).
    /// - Returns: The changed response.
    @available(*, deprecated, renamed: "withFixedDelay(_:)", message: "pass a Duration: .milliseconds(250)")
    public func withFixedDelay(milliseconds: Int) -> StubResponse {
        var copy = self
        copy.fixedDelayMilliseconds = milliseconds
        return copy
    }

    /// The delay before answering as a `Duration`, or `nil` for none (``fixedDelayMilliseconds``).
    public var fixedDelay: Duration? {
        fixedDelayMilliseconds.map { .milliseconds($0) }
    }

    /// A duration in whole milliseconds, rounded up so a delay is never shorter than asked; negative is 0.
    static func wholeMilliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        guard seconds < Int64.max / 1000 - 1 else { return Int.max }
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let milliseconds = seconds * 1000 + (attoseconds + perMillisecond - 1) / perMillisecond
        return Int(clamping: milliseconds)
    }

    /// The response in WireMock's JSON form: `status`, `headers`, one of `body` / `jsonBody` / `base64Body` /
    /// `bodyFileName`, `fixedDelayMilliseconds`, `fault`.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["status": .integer(Int64(status))]
        if !headers.isEmpty { members["headers"] = .object(headers.mapValues { .string($0) }) }
        switch body {
        case .text(let text)?: members["body"] = .string(text)
        case .json(let document)?: members["jsonBody"] = document
        case .data(let bytes)?: members["base64Body"] = .string(bytes.base64EncodedString())
        case .file(let name)?: members["bodyFileName"] = .string(name)
        case nil: break
        }
        if let fixedDelayMilliseconds { members["fixedDelayMilliseconds"] = .integer(Int64(fixedDelayMilliseconds)) }
        if let fault { members["fault"] = .string(fault.rawValue) }
        return .object(members)
    }
}
