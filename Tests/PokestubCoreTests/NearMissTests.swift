import Foundation
import Testing

@testable import PokestubCore

@Suite("NearMiss: what comes close to an unmatched request")
struct NearMissTests {
    /// Stubs for `/api/v2/pokemon/1/` … `/api/v2/pokemon/29/` plus the list page.
    private func pokemonIndex() throws -> StubIndex {
        var stubs = try (1...29).map { try Fixtures.getStub(urlPath: "/api/v2/pokemon/\($0)/") }
        stubs.append(
            try Fixtures.stub(
                #"""
                {"name": "list", "request": {"method": "GET", "urlPath": "/api/v2/pokemon/",
                 "queryParameters": {"offset": {"or": [{"absent": true}, {"equalTo": "0"}]},
                                     "limit": {"or": [{"absent": true}, {"equalTo": "20"}]}}}}
                """#))
        return StubIndex(stubs)
    }

    @Test("one near-miss search fills at most its budget of distance-table cells, however long the URL")
    func boundedComparison() throws {
        // 400 stubs with 1,000-byte paths and a 2,000-byte request path: 800 million cells unbounded.
        let stubs = try (0..<400).map { number in
            try Fixtures.getStub(urlPath: "/long/\(number)/" + String(repeating: "p", count: 1_000))
        }
        let index = StubIndex(stubs)
        let request = Fixtures.request("/long/" + String(repeating: "%FF", count: 660))
        let budget = Levenshtein.Budget(cells: Levenshtein.cellsPerSearch)
        let nearMisses = Levenshtein.$budget.withValue(budget) { NearMiss.closest(to: request, in: index) }
        #expect(nearMisses.count == 3)
        #expect(budget.remaining >= 0)
        #expect(budget.remaining < Levenshtein.cellsPerSearch)
        // Short URLs are compared as before, well within the budget.
        let plain = Levenshtein.Budget(cells: Levenshtein.cellsPerSearch)
        let close = Levenshtein.$budget.withValue(plain) {
            NearMiss.closest(to: Fixtures.request("/api/v2/pokemon/9999/"), in: try! pokemonIndex())
        }
        #expect(close.count == 3)
        #expect(plain.remaining > Levenshtein.cellsPerSearch - 1_000_000)
    }

    @Test("the closest stubs to an unknown pokemon are pokemon resources, and the report names urlPath")
    func unknownPokemon() throws {
        let request = Fixtures.request("/api/v2/pokemon/9999/")
        let index = try pokemonIndex()
        #expect(index.bestMatch(for: request) == nil)
        let nearMisses = NearMiss.closest(to: request, in: index)
        #expect(nearMisses.count == 3)
        for nearMiss in nearMisses {
            let path = try #require(nearMiss.stub.name)
            #expect(path.hasPrefix("/api/v2/pokemon/") && path != "/api/v2/pokemon/", "\(path) is a resource")
            #expect(nearMiss.result.differences.map(\.field) == ["urlPath"])
            #expect(nearMiss.result.differences.first?.actual == "/api/v2/pokemon/9999/")
        }
        let distances = nearMisses.map(\.result.distance)
        #expect(distances == distances.sorted())
        // Three edits away each; every other pokemon stub needs four.
        #expect(
            Set(nearMisses.compactMap(\.stub.name)) == [
                "/api/v2/pokemon/9/", "/api/v2/pokemon/19/", "/api/v2/pokemon/29/",
            ])

        let first = try #require(nearMisses.first?.stub.name)
        let report = NearMiss.report(for: request, nearMisses: nearMisses)
        #expect(report.hasPrefix("No stub matched GET /api/v2/pokemon/9999/\n\nClosest stubs:\n1. GET \(first) (id "))
        #expect(report.contains(#"urlPath: expected "\#(first)", got "/api/v2/pokemon/9999/""#))
        #expect(report.hasSuffix("\n"))
    }

    @Test("a request differing only in method reports method")
    func methodOnly() throws {
        let request = Fixtures.request("DELETE", "/api/v2/pokemon/25/")
        let nearMisses = NearMiss.closest(to: request, in: try pokemonIndex(), limit: 1)
        let nearMiss = try #require(nearMisses.first)
        #expect(nearMiss.stub.name == "/api/v2/pokemon/25/")
        #expect(nearMiss.result.differences.map(\.field) == ["method"])
        let report = NearMiss.report(for: request, nearMisses: nearMisses)
        #expect(report.contains(#"method: expected "GET", got "DELETE""#))
    }

    @Test("a request differing in a query parameter names the parameter")
    func queryParameter() throws {
        let request = Fixtures.request("/api/v2/pokemon/?limit=50")
        let nearMisses = NearMiss.closest(to: request, in: try pokemonIndex())
        let nearMiss = try #require(nearMisses.first)
        #expect(nearMiss.stub.name == "list")
        #expect(nearMiss.result.differences.map(\.field) == ["query parameter limit"])
        let report = NearMiss.report(for: request, nearMisses: nearMisses)
        #expect(report.contains(#"query parameter limit: expected or(absent, equalTo "20"), got "50""#))
    }

    @Test("literal values are quoted in the report, patterns are shown as they read")
    func quoting() throws {
        let pattern = try Fixtures.pattern(
            #"""
            {"method": "POST", "urlPath": "/a b/",
             "queryParameters": {"debug": {"absent": true}, "q": {"anything": "x"}, "limit": {"equalTo": "20"}}}
            """#)
        let differences = pattern.evaluate(Fixtures.request("/x/?debug=1&limit=2")).differences
        #expect(
            differences.map(\.description) == [
                #"method: expected "POST", got "GET""#,
                #"urlPath: expected "/a%20b/", got "/x/""#,
                #"query parameter debug: expected absent, got "1""#,
                #"query parameter limit: expected equalTo "20", got "2""#,
            ])
    }

    @Test("the near-miss cache tells requests apart by their bodies without keeping them")
    func cacheKeysOnBodyDigest() throws {
        let index = StubIndex([
            try Fixtures.stub(
                #"{"request": {"method": "POST", "urlPath": "/team", "bodyPatterns": [{"contains": "pikachu"}]}}"#)
        ])
        let cache = NearMissCache()
        let first = cache.report(for: Fixtures.request("POST", "/team", body: "bulbasaur"), in: index)
        let second = cache.report(for: Fixtures.request("POST", "/team", body: "charmander"), in: index)
        #expect(first.contains("bulbasaur"))
        #expect(second.contains("charmander"), "a cached report for another body was reused: \(second)")
        #expect(cache.report(for: Fixtures.request("POST", "/team", body: "bulbasaur"), in: index) == first)
    }

    @Test("with no stubs the report says so")
    func noStubs() {
        let request = Fixtures.request("/x")
        let nearMisses = NearMiss.closest(to: request, in: .empty)
        #expect(nearMisses.isEmpty)
        #expect(
            NearMiss.report(for: request, nearMisses: nearMisses)
                == "No stub matched GET /x\n\nThere are no stubs to compare with.\n")
    }

    @Test("stubs in other folders are still compared when nothing closer exists")
    func fallsBackToEveryStub() throws {
        let index = StubIndex([try Fixtures.getStub(urlPath: "/api/v2/type/1/", name: "type 1")])
        let nearMisses = NearMiss.closest(to: Fixtures.request("/api/v2/pokemon/1/"), in: index)
        #expect(nearMisses.map(\.stub.name) == ["type 1"])
    }

    @Test("each near miss appears once")
    func noDuplicates() throws {
        let stubs = [
            try Fixtures.stub(#"{"name": "any", "request": {"method": "POST"}}"#),
            try Fixtures.stub(#"{"name": "regex", "request": {"urlPathPattern": ".*/x"}}"#),
            try Fixtures.getStub(urlPath: "/", name: "root"),
        ]
        let nearMisses = NearMiss.closest(to: Fixtures.request("GET", "*"), in: StubIndex(stubs), limit: 10)
        let names = nearMisses.compactMap(\.stub.name)
        #expect(names.count == 3)
        #expect(Set(names).count == names.count)
    }
}
