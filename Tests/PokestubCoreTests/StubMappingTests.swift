import Foundation
import Testing

@testable import PokestubCore

@Suite("StubMapping: reading a mapping's JSON")
struct StubMappingTests {
    private func response(_ json: String) throws -> ResponseDefinition {
        try Fixtures.stub(#"{"request": {"urlPath": "/a/"}, "response": \#(json)}"#).response
    }

    private func responseError(_ json: String) -> StubDefinitionError? {
        Fixtures.definitionError(#"{"request": {"urlPath": "/a/"}, "response": \#(json)}"#)
    }

    @Test("reads id, name, priority and metadata; priority defaults to 5")
    func topLevel() throws {
        let id = UUID()
        let stub = try Fixtures.stub(
            #"""
            {"id": "8C5DB8B4-2DB4-4A0B-BB8E-2F4E0C6A1F00", "name": "pikachu", "priority": 2,
             "metadata": {"team": "ui"}, "persistent": true, "request": {"method": "GET"}}
            """#, id: id)
        #expect(stub.id == UUID(uuidString: "8c5db8b4-2db4-4a0b-bb8e-2f4e0c6a1f00"))
        #expect(stub.name == "pikachu")
        #expect(stub.priority == 2)
        #expect(stub.metadata == .object(["team": .string("ui")]))
        #expect(stub.definition["id"] == .string("8c5db8b4-2db4-4a0b-bb8e-2f4e0c6a1f00"))
        let plain = try Fixtures.stub(#"{"request": {"method": "GET"}}"#, id: id)
        #expect(plain.id == id)
        #expect(plain.priority == 5)
        #expect(plain.response.status == 200)
        #expect(plain.response.body.count == 0)
    }

    @Test("derived ids are version-8 UUIDs that differ by source")
    func derivedIDs() {
        let id = StubMapping.derivedID(from: "mappings/pokemon/1.json")
        #expect(id == StubMapping.derivedID(from: "mappings/pokemon/1.json"))
        #expect(id != StubMapping.derivedID(from: "mappings/pokemon/2.json"))
        let text = id.uuidString.lowercased()
        #expect(text[text.index(text.startIndex, offsetBy: 14)] == "8")
        #expect("89ab".contains(text[text.index(text.startIndex, offsetBy: 19)]))
    }

    @Test(
        "refuses a bad id, priority or method",
        arguments: [
            (#"{"id": "not-a-uuid", "request": {}}"#, "id"),
            (#"{"priority": 0, "request": {}}"#, "priority"),
            (#"{"priority": "high", "request": {}}"#, "priority"),
            (#"{"request": {"method": "GET /"}}"#, "request.method"),
            (#"{"request": {"urlPath": 5}}"#, "request.urlPath"),
            (#"{"request": {"queryParameters": []}}"#, "request.queryParameters"),
            (#"{"request": {"bodyPatterns": {"equalTo": "x"}}}"#, "request.bodyPatterns"),
            (#"{"request": {"urlPathTemplate": "/a/{id"}}"#, "request.urlPathTemplate"),
            (#"{"request": {"urlPathTemplate": "/a/x{id}/"}}"#, "request.urlPathTemplate"),
            (#"{"request": {"queryParameters": {"q": {"or": []}}}}"#, "request.queryParameters.q.or"),
            (#"{"request": {}, "newScenarioState": "s"}"#, "newScenarioState"),
            (#"{"request": {}, "response": {"status": 99}}"#, "response.status"),
            (#"{"request": {}, "response": {"headers": {"X": {"a": 1}}}}"#, "response.headers.X"),
            (#"{"request": {}, "response": {"headers": {"X": null}}}"#, "response.headers.X"),
        ])
    func refusals(json: String, field: String) {
        #expect(Fixtures.definitionError(json)?.field == field)
    }

    @Test(
        "an unknown field anywhere is named with its key path",
        arguments: [
            (#"{"request": {}, "extra": 1}"#, "extra"),
            (#"{"request": {"urlPath": "/a/", "extra": 1}}"#, "request.extra"),
            (#"{"request": {}, "response": {"extra": 1}}"#, "response.extra"),
            (#"{"request": {"headers": {"A": {"equalTo": "x", "extra": 1}}}}"#, "request.headers.A.extra"),
            (#"{"request": {"bodyPatterns": [{"equalToJson": {}, "extra": 1}]}}"#, "request.bodyPatterns[0].extra"),
            (
                #"{"request": {"bodyPatterns": [{"matchesJsonPath": {"expression": "$.a", "extra": 1}}]}}"#,
                "request.bodyPatterns[0].matchesJsonPath.extra"
            ),
        ])
    func unknownFields(json: String, field: String) {
        let error = Fixtures.definitionError(json)
        #expect(error?.field == field)
        #expect(error?.message.contains("unsupported") == true)
    }

    @Test("two URL fields are refused")
    func twoURLFields() {
        let error = Fixtures.definitionError(#"{"request": {"urlPath": "/a/", "urlPattern": "/a/.*"}}"#)
        #expect(error?.message.contains("urlPath and urlPattern") == true)
    }

    @Test("a bad regular expression is refused wherever it is")
    func badRegex() {
        #expect(Fixtures.definitionError(#"{"request": {"urlPattern": "(["}}"#)?.field == "request.urlPattern")
        let error = Fixtures.definitionError(#"{"request": {"headers": {"A": {"matches": "*x"}}}}"#)
        #expect(error?.field == "request.headers.A.matches")
        #expect(error?.message.contains("invalid regular expression") == true)
    }

    @Test("body is text, jsonBody is compact JSON with a Content-Type, base64Body is bytes")
    func bodies() throws {
        #expect(try response(#"{"body": "héllo"}"#).body.data == Data("héllo".utf8))
        let json = try response(#"{"jsonBody": {"name": "pikachu", "id": 25, "types": ["electric"]}}"#)
        #expect(json.body.text == #"{"id":25,"name":"pikachu","types":["electric"]}"#)
        #expect(json.headers["content-type"] == "application/json")
        let typed = try response(#"{"jsonBody": [1], "headers": {"Content-Type": "application/vnd.x+json"}}"#)
        #expect(typed.headers.values(for: "Content-Type") == ["application/vnd.x+json"])
        #expect(try response(#"{"base64Body": "AAEC/w=="}"#).body.data == Data([0, 1, 2, 255]))
        #expect(try response(#"{"base64Body": "AAEC\n/w=="}"#).body.data == Data([0, 1, 2, 255]))
    }

    @Test("base64Body that is not base64 is refused", arguments: ["@@@@", "A===", "%%%%AAEC"])
    func badBase64(text: String) {
        #expect(responseError(#"{"base64Body": "\#(text)"}"#)?.field == "response.base64Body")
    }

    @Test("two body fields are refused, naming both")
    func twoBodies() {
        let error = responseError(#"{"body": "a", "base64Body": "AA=="}"#)
        #expect(error?.message.contains("body and base64Body") == true)
        #expect(error?.field == "response.base64Body")
    }

    @Test("a header with an array value gives one field per element")
    func arrayHeaders() throws {
        let response = try response(
            #"{"headers": {"Set-Cookie": ["a=1; Path=/", "b=2"], "Content-Type": "text/plain", "X-Count": 3}}"#)
        #expect(response.headers.values(for: "set-cookie") == ["a=1; Path=/", "b=2"])
        #expect(response.headers["Content-Type"] == "text/plain")
        #expect(response.headers["X-Count"] == "3")
        #expect(response.httpResponse.headers.values(for: "Set-Cookie").count == 2)
    }

    @Test(
        "fixedDelayMilliseconds must be a whole number from 0 to 600000",
        arguments: [
            ("0", 0), ("250", 250), ("600000", 600_000),
        ])
    func delayInBounds(text: String, delay: Int) throws {
        let response = try response(#"{"fixedDelayMilliseconds": \#(text)}"#)
        #expect(response.delayMilliseconds == delay)
        #expect(response.httpResponse.delayMilliseconds == delay)
    }

    @Test("fixedDelayMilliseconds out of bounds is refused", arguments: ["-1", "600001", "1.5", "\"10\""])
    func delayOutOfBounds(text: String) {
        #expect(responseError(#"{"fixedDelayMilliseconds": \#(text)}"#)?.field == "response.fixedDelayMilliseconds")
    }

    @Test("faults are WireMock's names; others are refused naming the supported ones")
    func faults() throws {
        #expect(try response(#"{"fault": "CONNECTION_RESET_BY_PEER"}"#).fault == .connectionResetByPeer)
        #expect(try response(#"{"fault": "EMPTY_RESPONSE"}"#).fault == .emptyResponse)
        let error = responseError(#"{"fault": "MALFORMED_RESPONSE_CHUNK"}"#)
        #expect(error?.field == "response.fault")
        #expect(error?.message.contains("EMPTY_RESPONSE") == true)
    }

    @Test("the request pattern's JSON form reads back to an equal pattern")
    func patternRoundTrip() throws {
        let pattern = try Fixtures.pattern(
            #"""
            {"method": "POST", "urlPathTemplate": "/api/v2/pokemon/{id}/",
             "queryParameters": {"limit": {"equalTo": "20", "caseInsensitive": true}, "x": {"absent": true}},
             "headers": {"Accept": {"or": [{"contains": "json"}, {"matches": "text/.*"}]}},
             "bodyPatterns": [{"equalToJson": {"a": [1]}, "ignoreArrayOrder": true},
                              {"matchesJsonPath": {"expression": "$.a", "doesNotContain": "x"}}]}
            """#)
        #expect(try RequestPattern(json: pattern.json) == pattern)
        #expect(try Fixtures.pattern(#"{"method": "ANY"}"#).json == .object(["method": .string("ANY")]))
    }

    @Test("statusMessage is kept with the definition (the reason phrase sent stays the standard one); only a string")
    func statusMessageKept() throws {
        let definition = try response(#"{"status": 200, "statusMessage": "Everything is fine"}"#)
        #expect(definition.statusMessage == "Everything is fine")
        #expect(definition.status == 200)
        #expect(try response(#"{"status": 200}"#).statusMessage == nil)
        let error = responseError(#"{"status": 200, "statusMessage": ["Everything", "is fine"]}"#)
        #expect(error?.field == "response.statusMessage")
        #expect(error?.message.contains("must be a string") == true)
    }
}
