import Foundation
import PokestubTestSupport
import Testing

@testable import PokestubCore

@Suite("The stubs shipped in stubs/")
struct ShippedStubsTests {
    /// Loaded for each test, not kept in a static: the loader parses on worker threads, so a global holding the
    /// stubs until exit is invisible to LeakSanitizer's `_WZ` suppression, and the heap pointers Swift keeps in
    /// enum spare bits (`Data`, indirect enums) read as leaks under `scripts/sanitizers.sh`.
    private let result = StubLoader(root: Repository.stubs).load()

    private func nextOfPage(_ url: String, index: StubIndex) throws -> JSONValue? {
        let stub = try #require(index.bestMatch(for: Fixtures.request(url)), "no stub for \(url)")
        return try JSONValue.parse(stub.response.body.data)["next"]
    }

    @Test("load without problems and hold more than 900 stubs")
    func loads() {
        #expect(result.problems.map(\.description) == [])
        #expect(result.stubs.count > 900)
        #expect(Set(result.stubs.map(\.id)).count == result.stubs.count, "ids are unique")
    }

    @Test(
        "the closest near miss of a list page with another limit is the page with the same offset",
        arguments: [0, 20, 500])
    func listPageNearMiss(offset: Int) throws {
        let index = StubIndex(result.stubs)
        let request = Fixtures.request("/api/v2/pokemon/?offset=\(offset)&limit=50")
        let closest = try #require(NearMiss.closest(to: request, in: index).first)
        #expect(closest.stub.name == "GET /api/v2/pokemon/?offset=\(offset)&limit=20")
        #expect(closest.result.differences.count == 1)
    }

    @Test(
        "list pages are found whatever the order of offset and limit",
        arguments: [
            ("/api/v2/pokemon/?offset=20&limit=20", "https://pokeapi.co/api/v2/pokemon/?offset=40&limit=20"),
            ("/api/v2/pokemon/?limit=20&offset=20", "https://pokeapi.co/api/v2/pokemon/?offset=40&limit=20"),
            ("/api/v2/pokemon/", "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20"),
            ("/api/v2/pokemon/?limit=20&offset=0", "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20"),
            ("/api/v2/pokemon/?offset=0", "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20"),
        ])
    func listPages(url: String, next: String) throws {
        let index = StubIndex(result.stubs)
        #expect(try nextOfPage(url, index: index) == .string(next))
    }

    @Test("resources are found by id and by name, and unknown ones are not")
    func resources() throws {
        let index = StubIndex(result.stubs)
        let byID = try #require(index.bestMatch(for: Fixtures.request("/api/v2/pokemon/25/")))
        #expect(try JSONValue.parse(byID.response.body.data)["name"] == .string("pikachu"))
        let byName = try #require(index.bestMatch(for: Fixtures.request("/api/v2/pokemon/pikachu/")))
        #expect(try JSONValue.parse(byName.response.body.data)["id"] == .integer(25))
        #expect(index.bestMatch(for: Fixtures.request("/api/v2/pokemon/99999/")) == nil)
        #expect(index.bestMatch(for: Fixtures.request("POST", "/api/v2/pokemon/25/")) == nil)
    }
}
