import Foundation
import Testing

@testable import PokestubCore

@Suite("Multi-value patterns: hasExactly and includes on query parameters and headers")
struct MultiValuePatternTests {
    private func passes(
        _ pattern: RequestPattern, _ url: String, headers: [(name: String, value: String)] = []
    )
        -> Bool
    {
        pattern.matches(Fixtures.request(url, headers: headers))
    }

    @Test("hasExactly passes the values it lists, in any order, and no other multiset")
    func hasExactlyQuery() throws {
        let pattern = try Fixtures.pattern(
            #"{"urlPath": "/p", "queryParameters": {"id": {"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}]}}}"#)
        #expect(passes(pattern, "/p?id=1&id=2"))
        #expect(passes(pattern, "/p?id=2&id=1"))
        #expect(passes(pattern, "/p?id=2&x=0&id=1"))
        for url in ["/p", "/p?id=1", "/p?id=2", "/p?id=1&id=3", "/p?id=3&id=9", "/p?id=1&id=2&id=2", "/p?id=1&id=1"] {
            #expect(!passes(pattern, url), "\(url)")
        }
    }

    @Test("each value pairs with its own pattern: two equal patterns want the value twice")
    func hasExactlyPairsValues() throws {
        let twice = try Fixtures.pattern(
            #"{"queryParameters": {"id": {"hasExactly": [{"equalTo": "1"}, {"equalTo": "1"}]}}}"#)
        #expect(passes(twice, "/p?id=1&id=1"))
        #expect(!passes(twice, "/p?id=1&id=2"), "WireMock 3 passes this; a recording of id=1&id=1 must not")
        // The first pattern passes every value; giving it the first, "7", would leave the second none: the
        // pairing has to move it along an augmenting path.
        let mixed = try Fixtures.pattern(
            #"{"queryParameters": {"v": {"hasExactly": [{"matches": "[0-9a-z]+"}, {"matches": "[0-9]+"}, {"contains": "b"}]}}}"#
        )
        #expect(passes(mixed, "/p?v=7&v=x&v=abc"))
        #expect(passes(mixed, "/p?v=abc&v=7&v=x"))
        #expect(!passes(mixed, "/p?v=abc&v=x&v=y"))
        let withExact = try Fixtures.pattern(
            #"{"queryParameters": {"v": {"hasExactly": [{"matches": "[0-9]+"}, {"equalTo": "5"}]}}}"#)
        #expect(passes(withExact, "/p?v=5&v=5"))
        #expect(passes(withExact, "/p?v=5&v=6"))
        #expect(!passes(withExact, "/p?v=6&v=7"))
    }

    @Test("includes wants each pattern to pass some value, and lets others be present")
    func includesQuery() throws {
        let pattern = try Fixtures.pattern(
            #"{"queryParameters": {"id": {"includes": [{"equalTo": "1"}, {"matches": "[0-9]{2}"}]}}}"#)
        #expect(passes(pattern, "/p?id=1&id=20"))
        #expect(passes(pattern, "/p?id=99&id=x&id=1"))
        #expect(!passes(pattern, "/p?id=1&id=2"))
        #expect(!passes(pattern, "/p?id=20"))
        #expect(!passes(pattern, "/p"))
    }

    @Test("headers take the same matchers, with names compared case-insensitively")
    func headers() throws {
        let pattern = try Fixtures.pattern(
            #"""
            {"headers": {"X-Trainer": {"hasExactly": [{"equalTo": "ash"}, {"equalTo": "misty", "caseInsensitive": true}]},
                         "Accept": {"includes": [{"contains": "json"}]}}}
            """#)
        let accept = (name: "accept", value: "text/html")
        let json = (name: "Accept", value: "application/json")
        #expect(passes(pattern, "/", headers: [("x-trainer", "MISTY"), ("X-Trainer", "ash"), accept, json]))
        #expect(!passes(pattern, "/", headers: [("X-Trainer", "ash"), accept, json]))
        #expect(!passes(pattern, "/", headers: [("X-Trainer", "ash"), ("X-Trainer", "misty"), accept]))
        #expect(!passes(pattern, "/", headers: [("X-Trainer", "ash, misty"), json]))
    }

    @Test("a string value pattern still passes a repeated parameter when any of its values passes")
    func singleUnchanged() throws {
        let equal = try Fixtures.pattern(#"{"queryParameters": {"id": {"equalTo": "2"}}}"#)
        #expect(passes(equal, "/p?id=1&id=2"))
        let either = try Fixtures.pattern(
            #"{"queryParameters": {"id": {"or": [{"equalTo": "1"}, {"equalTo": "2"}]}}}"#)
        #expect(passes(either, "/p?id=2&id=3"))
        let absent = try Fixtures.pattern(#"{"queryParameters": {"id": {"absent": true}}}"#)
        #expect(passes(absent, "/p"))
        #expect(
            try Fixtures.pattern(#"{"queryParameters": {"id": {"equalTo": "2"}}}"#).queryParameters["id"]
                == .single(.equalTo("2", caseInsensitive: false)))
    }

    @Test("the JSON form round-trips, and a stub's JSON keeps hasExactly and includes")
    func roundTrip() throws {
        let pattern = try Fixtures.pattern(
            #"""
            {"method": "GET", "urlPath": "/p",
             "queryParameters": {"id": {"hasExactly": [{"equalTo": "1"}, {"matches": "[0-9]+"}]}, "q": {"equalTo": "x"}},
             "headers": {"Accept": {"includes": [{"contains": "json"}, {"absent": false}]}}}
            """#)
        #expect(
            pattern.queryParameters["id"]
                == .hasExactly([.equalTo("1", caseInsensitive: false), .matches(try StubRegex("[0-9]+"))]))
        #expect(try RequestPattern(json: pattern.json) == pattern)
        #expect(
            pattern.json["queryParameters"]?["id"]
                == ["hasExactly": [["equalTo": "1"], ["matches": "[0-9]+"]]])
        #expect(pattern.json["headers"]?["Accept"] == ["includes": [["contains": "json"], ["absent": false]]])
        #expect(pattern.json["queryParameters"]?["q"] == ["equalTo": "x"])
    }

    @Test(
        "malformed multi-value matchers are refused naming the field",
        arguments: [
            (#"{"hasExactly": []}"#, "request.queryParameters.id.hasExactly", "non-empty array"),
            (#"{"includes": {"equalTo": "1"}}"#, "request.queryParameters.id.includes", "non-empty array"),
            (
                #"{"hasExactly": [{"equalTo": "1"}], "includes": [{"equalTo": "1"}]}"#, "request.queryParameters.id",
                "exactly one of hasExactly, includes"
            ),
            (#"{"hasExactly": [{"equalTo": "1"}], "equalTo": "1"}"#, "request.queryParameters.id", "exactly one of"),
            (#"{"hasExactly": [{"equalTo": "1"}], "caseInsensitive": true}"#, "caseInsensitive", "unsupported"),
            (#"{"hasExactly": [{"nope": "1"}]}"#, "hasExactly[0].nope", "unsupported matcher"),
        ])
    func refused(_ matcher: String, _ keyPath: String, _ message: String) throws {
        let error = Fixtures.definitionError(
            #"{"request": {"queryParameters": {"id": \#(matcher)}}, "response": {"status": 200}}"#)
        #expect(error?.description.contains(keyPath) == true, "\(String(describing: error))")
        #expect(error?.description.contains(message) == true, "\(String(describing: error))")
    }

    @Test("a near miss names the parameter with the matcher in words, closer the more values pair")
    func nearMiss() throws {
        let pattern = try Fixtures.pattern(
            #"{"urlPath": "/p", "queryParameters": {"id": {"hasExactly": [{"equalTo": "1"}, {"equalTo": "2"}]}}}"#)
        let half = pattern.evaluate(Fixtures.request("/p?id=1&id=3"))
        let none = pattern.evaluate(Fixtures.request("/p?id=3&id=9"))
        #expect(half.differences.map(\.field) == ["query parameter id"])
        #expect(half.differences.first?.expected == #"hasExactly(equalTo "1", equalTo "2")"#)
        #expect(half.differences.first?.actual == "1, 3")
        #expect(half.distance > 0 && half.distance < none.distance)
        #expect(pattern.evaluate(Fixtures.request("/p?id=2&id=1")).isMatch)
        #expect(pattern.failedQueryParameters(Fixtures.request("/p?id=1")) == 1)
    }

    @Test("stubs grouped by a parameter's values find the hasExactly stub for any order of its values")
    func indexed() throws {
        var stubs: [StubMapping] = []
        for page in 0..<10 {
            stubs.append(
                try Fixtures.stub(
                    #"""
                    {"name": "page \#(page)", "request": {"method": "GET", "urlPath": "/list",
                     "queryParameters": {"offset": {"equalTo": "\#(page * 20)"}}}}
                    """#))
        }
        stubs.append(
            try Fixtures.stub(
                #"""
                {"name": "both", "request": {"method": "GET", "urlPath": "/list",
                 "queryParameters": {"offset": {"hasExactly": [{"equalTo": "40"}, {"equalTo": "41"}]}}}}
                """#))
        let index = StubIndex(stubs)
        #expect(index.bestMatch(for: Fixtures.request("/list?offset=40&offset=41"))?.name == "both")
        #expect(index.bestMatch(for: Fixtures.request("/list?offset=41&offset=40"))?.name == "both")
        #expect(index.bestMatch(for: Fixtures.request("/list?offset=41&limit=20"))?.name == nil)
        #expect(index.bestMatch(for: Fixtures.request("/list?offset=40"))?.name == "page 2")
    }

    @Test("a chain of 500 values pairs along augmenting paths, and one value short pairs one fewer")
    func largePairing() throws {
        // Pattern 0 passes only the last value, pattern i the values i - 1 and i, listed i first: pairing each
        // pattern with the first value it passes leaves pattern 0 nothing, and the one perfect pairing (pattern
        // i with value i - 1) is reached only by moving the whole chain.
        let count = 500
        let edges = (0..<count).map { index in index == 0 ? [count - 1] : [index, index - 1] }
        let clock = ContinuousClock()
        let start = clock.now
        #expect(MultiValuePattern.maximumMatching(edges, valueCount: count) == count)
        var short = edges
        short[count / 2] = [count / 2]
        short[count / 2 + 1] = [count / 2 + 1]
        #expect(MultiValuePattern.maximumMatching(short, valueCount: count) == count - 1)
        print("two pairings of a 500-value chain: \(clock.now - start)")
        // The same through the matchers, smaller: regular expressions on the values of one parameter.
        let small = 40
        let patterns = try (0..<small).map { index in
            StringValuePattern.matches(try StubRegex(index == 0 ? "v\(small - 1)" : "v(\(index - 1)|\(index))"))
        }
        let values = (0..<small).reversed().map { "v\($0)" }
        #expect(MultiValuePattern.hasExactly(patterns).matches(values))
        var missing = values
        missing[small / 2] = "w"
        #expect(!MultiValuePattern.hasExactly(patterns).matches(missing))
        #expect(MultiValuePattern.pairCount(missing, patterns) == small - 1)
    }
}
