import Foundation
import PokestubClient
import Testing

@Suite("Builders write WireMock JSON")
struct BuilderJSONTests {
    @Test("a GET stub with a query matcher and a JSON body gives the WireMock mapping")
    func getStubWithQueryAndJSONBody() throws {
        let stub = StubBuilder.get("/api/v2/pokemon")
            .withQueryParameter("limit", .equalTo("20"))
            .willReturn(.json(["count": 1]))
            .withName("first page")
            .atPriority(1)
        let expected = try JSONValue(
            parsing: """
                {"name": "first page", "priority": 1,
                 "request": {"method": "GET", "urlPath": "/api/v2/pokemon",
                             "queryParameters": {"limit": {"equalTo": "20"}}},
                 "response": {"status": 200, "headers": {"Content-Type": "application/json"},
                              "jsonBody": {"count": 1}}}
                """)
        #expect(stub.json == expected)
    }

    @Test("every URL matcher writes its own WireMock field")
    func urlFields() {
        let cases: [(URLMatcher, String)] = [
            (.url("/a?b=1"), "url"), (.path("/a"), "urlPath"), (.urlPattern("/a.*"), "urlPattern"),
            (.pathPattern("/a/[0-9]+"), "urlPathPattern"), (.pathTemplate("/a/{id}"), "urlPathTemplate"),
        ]
        for (matcher, field) in cases {
            let json = RequestPatternBuilder.get(matcher).json
            #expect(json[field]?.stringValue == matcher.field?.value, "\(field)")
            #expect(json.objectValue?.count == 2, "only method and \(field)")
        }
        #expect(RequestPatternBuilder.any(.any).json == ["method": "ANY"])
    }

    @Test("headers and body patterns use WireMock's matcher objects")
    func headersAndBodyPatterns() throws {
        let pattern = RequestPatternBuilder.post("/api/v2/team")
            .withHeader("Content-Type", .contains("json"))
            .withHeader("X-Debug", .absent)
            .withRequestBody(.equalToJson(["name": "ash"], ignoreExtraElements: true))
            .withRequestBody(.matchesJsonPath("$.team[0]", .equalTo("pikachu")))
            .withRequestBody(.matches(".*pikachu.*"))
        let expected = try JSONValue(
            parsing: """
                {"method": "POST", "urlPath": "/api/v2/team",
                 "headers": {"Content-Type": {"contains": "json"}, "X-Debug": {"absent": true}},
                 "bodyPatterns": [
                    {"equalToJson": {"name": "ash"}, "ignoreExtraElements": true},
                    {"matchesJsonPath": {"expression": "$.team[0]", "equalTo": "pikachu"}},
                    {"matches": ".*pikachu.*"}]}
                """)
        #expect(pattern.json == expected)
    }

    @Test("the value matchers write the JSON the server reads")
    func valueMatchers() {
        #expect(ValueMatcher.equalTo("a", caseInsensitive: true).json == ["equalTo": "a", "caseInsensitive": true])
        #expect(ValueMatcher.contains("a").json == ["contains": "a"])
        #expect(ValueMatcher.doesNotContain("a").json == ["doesNotContain": "a"])
        #expect(ValueMatcher.doesNotMatch("a+").json == ["doesNotMatch": "a+"])
        #expect(ValueMatcher.present.json == ["absent": false])
        #expect(ValueMatcher.equalToJson(text: "[1]").json == ["equalToJson": "[1]"])
        #expect(ValueMatcher.or(.absent, .equalTo("0")).json == ["or": [["absent": true], ["equalTo": "0"]]])
        #expect(ValueMatcher.matchesJsonPath("$.name").json == ["matchesJsonPath": "$.name"])
        #expect(
            ValueMatcher.hasExactly(.equalTo("1"), .matches("[0-9]+")).json
                == ["hasExactly": [["equalTo": "1"], ["matches": "[0-9]+"]]])
        #expect(ValueMatcher.includes(.contains("json")).json == ["includes": [["contains": "json"]]])
        #expect(
            ValueMatcher.hasExactly(.equalTo("1"), .equalTo("2")).description
                == #"hasExactly(equalTo "1", equalTo "2")"#)
    }

    @Test("responses write status, headers, one body field, delay and fault")
    func responses() {
        #expect(StubResponse.status(204).json == ["status": 204])
        #expect(
            StubResponse.text("gone", status: 410).withFixedDelay(.milliseconds(250)).json == [
                "status": 410, "body": "gone", "headers": ["Content-Type": "text/plain; charset=utf-8"],
                "fixedDelayMilliseconds": 250,
            ])
        #expect(
            StubResponse.data(Data([0, 1, 2]), contentType: "image/png").json == [
                "status": 200, "base64Body": "AAEC", "headers": ["Content-Type": "image/png"],
            ])
        #expect(StubResponse.file("pokemon/1.json").json == ["status": 200, "bodyFileName": "pokemon/1.json"])
        #expect(
            StubResponse.fault(.connectionResetByPeer).json == ["status": 200, "fault": "CONNECTION_RESET_BY_PEER"])
        #expect(
            StubResponse.json([:]).withHeader("content-type", "application/vnd+json").headers == [
                "content-type": "application/vnd+json"
            ])
    }

    @Test("a stub with an id and metadata writes them lower-cased and as given")
    func idAndMetadata() throws {
        let id = try #require(UUID(uuidString: "8C5DB8B4-2F4B-4C4B-9F5C-0E5E7B3C1A11"))
        let json = StubBuilder.delete("/x").withID(id).withMetadata(["team": "ios"]).json
        #expect(json["id"] == "8c5db8b4-2f4b-4c4b-9f5c-0e5e7b3c1a11")
        #expect(json["metadata"] == ["team": "ios"])
        #expect(json["response"] == ["status": 200])
    }

    @Test("patterns describe themselves in words for failure messages")
    func descriptions() {
        let pattern = RequestPatternBuilder.get("/api/v2/pokemon/")
            .withQueryParameter("limit", .equalTo("20"))
            .withHeader("Accept", .contains("json"))
        #expect(
            pattern.description
                == #"GET /api/v2/pokemon/ with query limit equalTo "20", header Accept contains "json""#)
        #expect(
            ValueMatcher.matchesJsonPath("$.a", .equalTo("b")).description == #"matchesJsonPath "$.a" with equalTo "b""#
        )
        #expect(
            ValueMatcher.equalToJson(["a": 1], ignoreArrayOrder: true).description
                == #"equalToJson {"a":1} (ignoring array order)"#)
    }

    @Test("mapping JSON text that is not an object is refused before it is sent")
    func mappingTextMustBeObject() {
        #expect(throws: PokestubClientError.self) { try "[1, 2]".stubMappingJSON() }
        #expect(throws: PokestubClientError.self) { try "{oops".stubMappingJSON() }
    }
}
