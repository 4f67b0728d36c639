import Foundation
import Testing

@testable import PokestubCore

/// Behaviours checked against WireMock 2.35.1 itself (scripts/wiremock-compat/compat.py), kept here so they
/// stay that way.
@Suite("Matching the way WireMock does")
struct WireMockCompatibilityTests {
    private static func stub(_ json: String) throws -> StubMapping {
        try StubMapping(
            json: try JSONValue.parse(json), defaultID: UUID(), source: .runtime, bodyFiles: BodyFileStore(root: nil))
    }

    @Test("a path regex written percent-encoded matches the raw path, and is found through the index")
    func encodedPathRegex() throws {
        let stub = try Self.stub(
            #"{"request": {"urlPathPattern": "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/"}, "response": {"status": 200}}"#
        )
        let index = StubIndex([stub])
        let encoded = HTTPRequest(method: "GET", rawURL: "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/")
        #expect(index.match(encoded)?.stub.id == stub.id)
        let decodedForm = try Self.stub(
            #"{"request": {"urlPathPattern": "/api/v2/pokemon-species/flabébé/"}, "response": {"status": 200}}"#)
        #expect(StubIndex([decodedForm]).match(encoded)?.stub.id == decodedForm.id)
    }

    @Test("a URL regex written percent-encoded matches path and query as received")
    func encodedURLRegex() throws {
        let stub = try Self.stub(
            #"{"request": {"urlPattern": "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/\\?q=%C3%A9"}, "response": {}}"#)
        let request = HTTPRequest(method: "GET", rawURL: "/api/v2/pokemon-species/flab%C3%A9b%C3%A9/?q=%C3%A9")
        #expect(StubIndex([stub]).match(request) != nil)
    }

    @Test("matches lets . cross line breaks")
    func dotMatchesNewlines() throws {
        let pattern = try StringValuePattern(json: try JSONValue.parse(#"{"matches": ".*end"}"#))
        #expect(pattern.matches("start\nend"))
        #expect(!pattern.matches("start\nfinish"))
    }

    @Test("an empty query counts as none for url")
    func emptyQuery() throws {
        let stub = try Self.stub(#"{"request": {"url": "/u"}, "response": {}}"#)
        #expect(stub.request.matches(HTTPRequest(method: "GET", rawURL: "/u?")))
        #expect(!stub.request.matches(HTTPRequest(method: "GET", rawURL: "/u?x=1")))
    }

    @Test("a JSONPath filter on an object tests the object itself")
    func filterOnObject() throws {
        let path = try JSONPath("$[?(@.id > 20)]")
        #expect(path.evaluate(on: try JSONValue.parse(#"{"id": 25}"#)).count == 1)
        #expect(path.evaluate(on: try JSONValue.parse(#"{"id": 5}"#)).isEmpty)
        #expect(path.evaluate(on: try JSONValue.parse(#"[{"id": 25}, {"id": 5}]"#)).count == 1)
    }

    @Test("mappings are shown with both id and uuid, and answers name their stub")
    func idsAndHeaders() throws {
        let stub = try Self.stub(#"{"name": "pika", "request": {"url": "/p"}, "response": {"status": 200}}"#)
        #expect(stub.definition["uuid"] == stub.definition["id"])
        let match = try #require(StubIndex([stub]).match(HTTPRequest(method: "GET", rawURL: "/p")))
        #expect(match.response.headers["Matched-Stub-Id"] == stub.id.uuidString.lowercased())
        #expect(match.response.headers["Matched-Stub-Name"] == "pika")
    }
}
