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

    @Test("each plain list page is byte for byte what its list's template renders for it, and answers first")
    func plainPagesEqualTheTemplate() throws {
        let store = StubStore(root: Repository.stubs)
        store.reload()
        let shipped = StubEngine(store: store, journalCapacity: 0)
        let templated = result.stubs.filter { $0.name?.hasSuffix("(any page)") == true }
        #expect(templated.count == 14, "one templated stub per list and path form")
        let onlyTemplates = StubStore(root: nil)
        for stub in templated { onlyTemplates.add(stub) }
        let rendering = StubEngine(store: onlyTemplates, journalCapacity: 0)
        let pages = result.stubs.filter { $0.name?.contains("?offset=") == true && $0.response.template == nil }
        #expect(pages.count > 200)
        // The first pages, the last one (its limit clipped) and the whole list of each: every kind of page,
        // without rendering the longest lists a hundred times over in a debug build.
        let sample = pages.filter { page in
            let name = page.name ?? ""
            return !name.hasSuffix("&limit=20") || ["=0&", "=20&", "=40&"].contains { name.contains("?offset\($0)") }
        }
        #expect(sample.count >= 4 * templated.count)
        for page in sample {
            let url = String(try #require(page.name).dropFirst("GET ".count))
            guard case .response(let plain) = shipped.handle(HTTPRequest(method: "GET", rawURL: url)),
                case .response(let rendered) = rendering.handle(HTTPRequest(method: "GET", rawURL: url))
            else {
                Issue.record("\(url): no response")
                continue
            }
            #expect(
                plain.headers["Matched-Stub-Id"] == page.id.uuidString.lowercased(), "\(url): the plain page answers")
            #expect(rendered.status == 200 && plain.status == 200, "\(url)")
            #expect(plain.body.data == rendered.body.data, "\(url): plain page and template differ")
        }
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
