import Foundation
import Testing

@testable import PokestubCore

@Suite("RequestPattern: body patterns")
struct BodyPatternTests {
    private func matches(_ bodyPattern: String, body: String) throws -> Bool {
        let pattern = try Fixtures.pattern(#"{"method": "POST", "bodyPatterns": [\#(bodyPattern)]}"#)
        let request = Fixtures.request("POST", "/graphql", body: body)
        let matched = pattern.matches(request)
        #expect(matched == pattern.evaluate(request).isMatch, "matches and evaluate disagree")
        return matched
    }

    @Test("equalTo, contains, matches and doesNotMatch test the whole body text")
    func textOperators() throws {
        #expect(try matches(#"{"equalTo": "pikachu"}"#, body: "pikachu"))
        #expect(try !matches(#"{"equalTo": "pikachu"}"#, body: "pikachu "))
        #expect(try matches(#"{"contains": "chu"}"#, body: "pikachu"))
        #expect(try !matches(#"{"contains": "saur"}"#, body: "pikachu"))
        #expect(try matches(#"{"matches": "pika[a-z]+"}"#, body: "pikachu"))
        #expect(try !matches(#"{"matches": "pika"}"#, body: "pikachu"))
        #expect(try matches(#"{"doesNotMatch": "pika"}"#, body: "pikachu"))
        #expect(try !matches(#"{"doesNotMatch": ".*chu"}"#, body: "pikachu"))
    }

    @Test("every body pattern must pass")
    func allMustPass() throws {
        let both = #"{"contains": "pika"}, {"contains": "raichu"}"#
        #expect(try !matches(both, body: "pikachu"))
        #expect(try matches(both, body: "pikachu raichu"))
    }

    @Test("equalToJson compares JSON values: key order and whitespace do not matter, 1 equals 1.0")
    func equalToJson() throws {
        let pattern = #"{"equalToJson": {"name": "pikachu", "ids": [1, 2], "weight": 60}}"#
        #expect(try matches(pattern, body: #"{"weight": 60.0, "ids": [1.0, 2], "name": "pikachu"}"#))
        #expect(try !matches(pattern, body: #"{"weight": 60.5, "ids": [1, 2], "name": "pikachu"}"#))
        #expect(try !matches(pattern, body: #"{"weight": "60", "ids": [1, 2], "name": "pikachu"}"#))
        #expect(try !matches(pattern, body: #"{"weight": 60, "ids": [2, 1], "name": "pikachu"}"#))
        #expect(try !matches(pattern, body: #"{"weight": 60, "ids": [1, 2], "name": "pikachu", "x": 1}"#))
        #expect(try !matches(pattern, body: "not json"))
        #expect(try !matches(#"{"equalToJson": {"on": true}}"#, body: #"{"on": 1}"#))
        #expect(try !matches(#"{"equalToJson": {"n": 1}}"#, body: #"{"n": true}"#))
    }

    @Test("equalToJson accepts the expected document written as a string")
    func equalToJsonString() throws {
        #expect(try matches(#"{"equalToJson": "{\"id\": 25}"}"#, body: #"{ "id" : 25 }"#))
    }

    @Test("ignoreArrayOrder compares arrays as multisets, at every depth")
    func ignoreArrayOrder() throws {
        let pattern = #"{"equalToJson": {"ids": [1, 2, 2, {"t": [3, 4]}]}, "ignoreArrayOrder": true}"#
        #expect(try matches(pattern, body: #"{"ids": [{"t": [4, 3]}, 2, 1, 2]}"#))
        #expect(try !matches(pattern, body: #"{"ids": [{"t": [4, 3]}, 1, 1, 2]}"#))
        #expect(try !matches(pattern, body: #"{"ids": [{"t": [4, 3]}, 2, 1]}"#))
    }

    @Test("ignoreExtraElements lets the body's objects have more members, at every depth")
    func ignoreExtraElements() throws {
        let pattern = #"{"equalToJson": {"pokemon": {"name": "pikachu"}}, "ignoreExtraElements": true}"#
        #expect(try matches(pattern, body: #"{"pokemon": {"name": "pikachu", "id": 25}, "page": 1}"#))
        #expect(try !matches(pattern, body: #"{"pokemon": {"id": 25}}"#))
        #expect(try !matches(pattern, body: #"{"pokemon": {"name": "raichu", "id": 26}}"#))
    }

    @Test("ignoreExtraElements lets the body's arrays have more items, as WireMock's does")
    func ignoreExtraArrayItems() throws {
        let ordered = #"{"equalToJson": {"ids": [1, 2]}, "ignoreExtraElements": true}"#
        #expect(try matches(ordered, body: #"{"ids": [1, 2, 3]}"#))
        #expect(try !matches(ordered, body: #"{"ids": [2, 1, 3]}"#))
        #expect(try !matches(ordered, body: #"{"ids": [1]}"#))
        let unordered = #"{"equalToJson": {"ids": [1, 2]}, "ignoreExtraElements": true, "ignoreArrayOrder": true}"#
        #expect(try matches(unordered, body: #"{"ids": [3, 2, 1]}"#))
        #expect(try !matches(unordered, body: #"{"ids": [3, 2]}"#))
    }

    @Test("ignoreArrayOrder with ignoreExtraElements pairs items as a whole, not greedily")
    func arrayPairingIsNotGreedy() throws {
        let pattern = #"""
            {"equalToJson": [{"a": 1}, {"a": 1, "b": 2}], "ignoreArrayOrder": true, "ignoreExtraElements": true}
            """#
        #expect(try matches(pattern, body: #"[{"a": 1, "b": 2}, {"a": 1}]"#))
        #expect(try !matches(pattern, body: #"[{"a": 1}, {"a": 1}]"#))
    }

    @Test("matchesJsonPath passes when the expression finds something that is not null or empty")
    func matchesJsonPath() throws {
        #expect(try matches(#"{"matchesJsonPath": "$.name"}"#, body: #"{"name": "pikachu"}"#))
        #expect(try matches(#"{"matchesJsonPath": "$.stats[1]"}"#, body: #"{"stats": [1, 2]}"#))
        #expect(try matches(#"{"matchesJsonPath": "$.stats[-1]"}"#, body: #"{"stats": [1, 2]}"#))
        #expect(try !matches(#"{"matchesJsonPath": "$.stats[2]"}"#, body: #"{"stats": [1, 2]}"#))
        #expect(try !matches(#"{"matchesJsonPath": "$.name"}"#, body: #"{"id": 25}"#))
        #expect(try !matches(#"{"matchesJsonPath": "$.name"}"#, body: #"{"name": null}"#))
        #expect(try !matches(#"{"matchesJsonPath": "$.name"}"#, body: "not json"))
        #expect(try matches(#"{"matchesJsonPath": "$['name']"}"#, body: #"{"name": "pikachu"}"#))
    }

    @Test("matchesJsonPath with a sub-pattern tests what the expression finds")
    func matchesJsonPathSubPattern() throws {
        let equal = #"{"matchesJsonPath": {"expression": "$.name", "equalTo": "pikachu"}}"#
        #expect(try matches(equal, body: #"{"name": "pikachu"}"#))
        #expect(try !matches(equal, body: #"{"name": "raichu"}"#))
        #expect(try !matches(equal, body: #"{"id": 25}"#))
        let number = #"{"matchesJsonPath": {"expression": "$.id", "equalTo": "25"}}"#
        #expect(try matches(number, body: #"{"id": 25}"#))
        let regex = #"{"matchesJsonPath": {"expression": "$.types[*].type.name", "matches": "elec.*"}}"#
        #expect(try matches(regex, body: #"{"types": [{"type": {"name": "fire"}}, {"type": {"name": "electric"}}]}"#))
        #expect(try !matches(regex, body: #"{"types": [{"type": {"name": "fire"}}]}"#))
    }

    @Test("matchesJsonPath filters select array items by a member's value")
    func filters() throws {
        let body = #"{"results": [{"name": "bulbasaur", "id": 1}, {"name": "ivysaur", "id": 2}]}"#
        #expect(try matches(#"{"matchesJsonPath": "$.results[?(@.name == 'ivysaur')]"}"#, body: body))
        #expect(try !matches(#"{"matchesJsonPath": "$.results[?(@.name == 'mew')]"}"#, body: body))
        #expect(try matches(#"{"matchesJsonPath": "$.results[?(@.id > 1)]"}"#, body: body))
        #expect(try !matches(#"{"matchesJsonPath": "$.results[?(@.id > 2)]"}"#, body: body))
        #expect(try matches(#"{"matchesJsonPath": "$.results[?(@.name != 'bulbasaur')]"}"#, body: body))
        #expect(try matches(#"{"matchesJsonPath": "$.results[?(@.id)]"}"#, body: body))
        #expect(try !matches(#"{"matchesJsonPath": "$.results[?(@.weight)]"}"#, body: body))
        let filtered = #"""
            {"matchesJsonPath": {"expression": "$.results[?(@.id == 2)].name", "equalTo": "ivysaur"}}
            """#
        #expect(try matches(filtered, body: body))
    }

    @Test("matchesJsonPath recursive descent finds members at any depth")
    func recursive() throws {
        let body = #"{"chain": {"species": {"name": "pichu"}, "evolves_to": [{"species": {"name": "pikachu"}}]}}"#
        #expect(try matches(#"{"matchesJsonPath": {"expression": "$..name", "equalTo": "pikachu"}}"#, body: body))
        #expect(try matches(#"{"matchesJsonPath": {"expression": "$..species.name", "equalTo": "pichu"}}"#, body: body))
        #expect(try !matches(#"{"matchesJsonPath": {"expression": "$..name", "equalTo": "raichu"}}"#, body: body))
        #expect(try !matches(#"{"matchesJsonPath": "$..weight"}"#, body: body))
        let path = try JSONPath("$..name")
        let found = path.evaluate(on: try JSONValue.parse(body))
        #expect(Set(found.compactMap(\.stringValue)) == ["pichu", "pikachu"])
    }

    @Test("unsupported JSONPath is refused when the stub loads", arguments: ["name", "$.", "$[?(@.a ~ 1)]", "$['a'"])
    func unsupportedJsonPath(expression: String) {
        #expect(throws: StubDefinitionError.self) { try JSONPath(expression) }
    }

    @Test("a body that is not UTF-8 only passes patterns that take any text")
    func binaryBody() throws {
        let pattern = try Fixtures.pattern(#"{"bodyPatterns": [{"contains": "a"}]}"#)
        let request = HTTPRequest(method: "POST", rawURL: "/", body: Data([0x61, 0xFF]))
        #expect(!pattern.matches(request))
    }

    @Test("under a request's budget a JSON body is parsed once for every JSON matcher, one step per byte")
    func jsonParsedOncePerRequest() throws {
        let body = #"{"name": "pikachu", "types": ["electric"], "stats": {"speed": 90}}"#
        let request = Fixtures.request("POST", "/graphql", body: body)
        let patterns = try [
            #"{"equalToJson": {"name": "pikachu"}, "ignoreExtraElements": true}"#,
            #"{"matchesJsonPath": "$.types[0]"}"#, #"{"matchesJsonPath": "$.stats.speed"}"#,
            #"{"equalToJson": "{\"name\": \"raichu\"}"}"#,
        ].map { try Fixtures.pattern(#"{"method": "POST", "bodyPatterns": [\#($0)]}"#) }
        let (matched, budget) = MatchBudget.measuring(steps: 1_000) { patterns.map { $0.matches(request) } }
        #expect(matched == [true, true, true, false])
        #expect(budget.remaining == 1_000 - body.utf8.count)
        // A budget too small for the body: nothing is parsed, so no JSON matcher passes.
        let (starved, spent) = MatchBudget.measuring(steps: 10) { patterns.map { $0.matches(request) } }
        #expect(starved == [false, false, false, false])
        #expect(spent.spentBy?.pattern == "equalToJson")
    }
}
