import Foundation
import Testing

@testable import PokestubCore

/// Factories for the values the core tests build over and over, with defaults for what a test does not care
/// about.
enum Fixtures {
    /// A request as the server would build it from the wire.
    static func request(
        _ method: String, _ rawURL: String, headers: [(name: String, value: String)] = [], body: String = ""
    ) -> HTTPRequest {
        HTTPRequest(method: method, rawURL: rawURL, headers: HTTPHeaders(headers), body: Data(body.utf8))
    }

    /// A `GET` request as the server would build it from the wire.
    static func request(_ rawURL: String, headers: [(name: String, value: String)] = []) -> HTTPRequest {
        request("GET", rawURL, headers: headers)
    }

    /// A request pattern read from its JSON form.
    static func pattern(_ json: String) throws -> RequestPattern {
        try RequestPattern(json: JSONValue.parse(json))
    }

    /// A stub mapping read from its JSON form, as the admin API would add it at run time.
    static func stub(
        _ json: String, id: UUID = UUID(), bodyFiles: BodyFileStore = BodyFileStore(root: nil)
    ) throws -> StubMapping {
        try StubMapping(json: JSONValue.parse(json), defaultID: id, source: .runtime, bodyFiles: bodyFiles)
    }

    /// A stub answering `GET path` with a text body naming it; `name` defaults to the path.
    static func getStub(urlPath path: String, name: String? = nil, priority: Int = 5) throws -> StubMapping {
        let json: JSONValue = .object([
            "name": .string(name ?? path), "priority": .integer(Int64(priority)),
            "request": .object(["method": .string("GET"), "urlPath": .string(path)]),
            "response": .object(["status": .integer(200), "body": .string(name ?? path)]),
        ])
        return try StubMapping(json: json, defaultID: UUID(), source: .runtime, bodyFiles: BodyFileStore(root: nil))
    }

    /// The error a stub mapping's JSON gives, or `nil` (and a failed expectation) when it loads.
    static func definitionError(
        _ json: String, bodyFiles: BodyFileStore = BodyFileStore(root: nil),
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> StubDefinitionError? {
        do {
            let value = try JSONValue.parse(json)
            _ = try StubMapping(json: value, defaultID: UUID(), source: .runtime, bodyFiles: bodyFiles)
            Issue.record("expected the mapping to be refused", sourceLocation: sourceLocation)
            return nil
        } catch let error as StubDefinitionError {
            return error
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }
}
