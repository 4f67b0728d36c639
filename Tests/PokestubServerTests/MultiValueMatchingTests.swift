import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("WireMock 3 multi-value matchers over real sockets")
struct MultiValueMatchingTests {
    static let mapping = #"""
        {"request": {"method": "GET", "urlPath": "/api/v2/pokemon/",
                     "queryParameters": {"id": {"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}]},
                                         "type": {"includes": [{"equalTo": "fire"}]}}},
         "response": {"status": 200, "body": "both"}}
        """#

    @Test("a stub added with hasExactly and includes is shown as added, matches, and counts requests")
    func addedStub() async throws {
        try await LiveServer.with { server in
            let (status, added) = try await server.admin("POST", "/mappings", json: Self.mapping)
            #expect(status == 201)
            let id = try #require(added["id"]?.stringValue)
            let (_, shown) = try await server.admin("GET", "/mappings/\(id)")
            #expect(
                shown["request"]?["queryParameters"]?["id"] == ["hasExactly": [["equalTo": "1"], ["equalTo": "2"]]])
            #expect(shown["request"]?["queryParameters"]?["type"] == ["includes": [["equalTo": "fire"]]])
            let path = "/api/v2/pokemon/"
            #expect(try await server.send("GET", path + "?id=2&type=water&id=1&type=fire").text == "both")
            #expect(try await server.send("GET", path + "?id=1&id=2&type=fire").text == "both")
            let miss = try await server.send("GET", path + "?id=1&id=3&type=fire")
            #expect(miss.status == 404)
            #expect(miss.header("Pokestub-Closest-Stub") == "\(id) query parameter id")
            #expect(
                miss.text.contains(#"id: expected hasExactly(equalTo "1", equalTo "2"), got "1, 3""#), "\(miss.text)")
            #expect(try await server.send("GET", path + "?id=1&id=2&type=water").status == 404)
            #expect(try await server.send("GET", path + "?id=1&id=2").status == 404)
            let (_, count) = try await server.admin(
                "POST", "/requests/count",
                json:
                    #"{"urlPath": "/api/v2/pokemon/", "queryParameters": {"id": {"hasExactly": [{"equalTo": "2"}, {"equalTo": "1"}]}}}"#
            )
            #expect(count["count"] == 4)
        }
    }
}
