import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

@Suite("StubLoader: every problem of a file, each with its line; WireMock features pokestub lacks named as such")
struct StubLoaderAllProblemsTests {
    private func problems(_ text: String) throws -> [StubLoadProblem] {
        try TemporaryDirectory.with { directory in
            try directory.write(text, to: "mappings/broken.json")
            return StubLoader(root: directory.path, strict: true).load().problems
        }
    }

    @Test("three independent problems in one mapping are three problems, on their own lines")
    func everyProblemOfAMapping() throws {
        let found = try problems(
            #"""
            {
              "priority": 0,
              "request": {
                "method": "GET",
                "urlPath": "/a",
                "headers": {"Accept": {"equalsTo": "json"}},
                "sortOf": true
              },
              "response": {
                "status": 200,
                "delayDistribution": {"type": "uniform", "lower": 1, "upper": 5}
              }
            }
            """#)
        try #require(found.count == 4, "\(found.map(\.description))")
        #expect(found.map(\.line) == [2, 6, 7, 11])
        #expect(found[0].message.hasPrefix("priority: must be 1 or more"))
        #expect(found[1].message.contains(#"request.headers.Accept.equalsTo: unsupported matcher "equalsTo""#))
        #expect(found[2].message.contains(#"request.sortOf: unsupported field "sortOf""#))
        #expect(
            found[3].message
                == "response.delayDistribution: WireMock feature not supported by pokestub: random delays "
                + "(response.delayDistribution)")
    }

    @Test("a removed field's consequences are not reported again")
    func noCascade() throws {
        let found = try problems(#"{"request": {"headers": {"X": {"equalsTo": "a"}}}, "response": {"status": 99}}"#)
        #expect(found.count == 2, "\(found.map(\.description))")
        #expect(found.map(\.message).contains { $0.hasPrefix("response.status: must be between 100 and 599") })
        #expect(!found.map(\.message).contains { $0.contains("empty pattern") })
    }

    @Test("every mapping of a mappings list is read, each problem prefixed with its position")
    func everyMappingOfAList() throws {
        let found = try problems(
            #"""
            {"mappings": [
              {"request": {"urlPath": "/a", "cookies": {"s": {"binaryEqualTo": "AA=="}}}, "response": {}},
              {"request": {"urlPath": "/b"}, "response": {}},
              {"request": {"urlPath": "/c"}, "response": {"fault": "RANDOM_DATA_THEN_CLOSE"}}
            ]}
            """#)
        try #require(found.count == 2, "\(found.map(\.description))")
        #expect(found.map(\.line) == [2, 4])
        #expect(
            found[0].message.hasPrefix("mappings[0]: request.cookies.s.binaryEqualTo: WireMock feature not supported"))
        #expect(found[1].message.hasPrefix("mappings[2]: response.fault: WireMock feature not supported by pokestub"))
    }

    @Test("a JSON syntax error is the one problem a file can have")
    func syntaxError() throws {
        let found = try problems("{\n  \"request\": {,\n}")
        #expect(found.count == 1)
        #expect(found.first?.line == 2)
    }

    @Test("WireMock 2.35 request fields pokestub lacks are named as WireMock features")
    func wireMockFeatures() throws {
        for field in ["host", "scheme", "customMatcher"] {
            let found = try problems(#"{"request": {"urlPath": "/a", "\#(field)": {}}, "response": {}}"#)
            #expect(found.count == 1)
            #expect(found.first?.message.contains("WireMock feature not supported by pokestub") == true, "\(field)")
        }
    }
}
