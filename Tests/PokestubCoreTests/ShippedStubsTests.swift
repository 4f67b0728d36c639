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

    /// The shipped stubs' answer to a GET, through the engine (list pages are response templates).
    private func answer(_ url: String) throws -> JSONValue {
        let store = StubStore(root: Repository.stubs)
        store.reload()
        let engine = StubEngine(store: store, journalCapacity: 0)
        guard case .response(let response) = engine.handle(HTTPRequest(method: "GET", rawURL: url)) else {
            throw ShippedStubsError("expected a response for \(url)")
        }
        guard response.status == 200 else { throw ShippedStubsError("\(url): status \(response.status)") }
        return try JSONValue.parse(response.body.data)
    }

    private struct ShippedStubsError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test("load without problems and hold more than 700 stubs")
    func loads() {
        #expect(result.problems.map(\.description) == [])
        #expect(result.stubs.count > 700)
        #expect(Set(result.stubs.map(\.id)).count == result.stubs.count, "ids are unique")
    }

    @Test(
        "a list page at any offset and limit is answered by the list's one templated stub",
        arguments: [0, 20, 500])
    func listPageOfAnyLimit(offset: Int) throws {
        let index = StubIndex(result.stubs)
        let stub = try #require(index.bestMatch(for: Fixtures.request("/api/v2/pokemon/?offset=\(offset)&limit=50")))
        #expect(stub.name == "GET /api/v2/pokemon/?offset=&limit= (any page)")
        let page = try answer("/api/v2/pokemon/?offset=\(offset)&limit=50")
        #expect(page["next"] == .string("https://pokeapi.co/api/v2/pokemon/?offset=\(offset + 50)&limit=50"))
        guard case .array(let results)? = page["results"] else {
            Issue.record("no results")
            return
        }
        #expect(results.count == 50)
    }

    @Test(
        "list pages are found whatever the order of offset and limit",
        arguments: [
            ("/api/v2/pokemon/?offset=20&limit=20", "https://pokeapi.co/api/v2/pokemon/?offset=40&limit=20"),
            ("/api/v2/pokemon/?limit=20&offset=20", "https://pokeapi.co/api/v2/pokemon/?offset=40&limit=20"),
            ("/api/v2/pokemon/", "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20"),
            ("/api/v2/pokemon/?limit=20&offset=0", "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20"),
            ("/api/v2/pokemon/?offset=0", "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20"),
            ("/api/v2/pokemon?offset=0", "https://pokeapi.co/api/v2/pokemon?offset=20&limit=20"),
            ("/api/v2/pokemon/?offset=1320&limit=20", "https://pokeapi.co/api/v2/pokemon/?offset=1340&limit=11"),
            ("/api/v2/pokemon/?offset=abc&limit=", "https://pokeapi.co/api/v2/pokemon/?offset=20&limit=20"),
        ])
    func listPages(url: String, next: String) throws {
        #expect(try answer(url)["next"] == .string(next))
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
