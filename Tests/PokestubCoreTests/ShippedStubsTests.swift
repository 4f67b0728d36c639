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

    @Test("hold no and/or with absent inside, which WireMock 2.35.1 refuses to load")
    func noLogicalAbsent() throws {
        let mappings = Repository.stubs + "/mappings"
        let files = try FileManager.default.subpathsOfDirectory(atPath: mappings).filter { $0.hasSuffix(".json") }
        #expect(files.count > 1000)
        var refused: [String] = []
        for file in files.sorted() {
            let json = try JSONValue.parse(Data(contentsOf: URL(fileURLWithPath: mappings + "/" + file)))
            if Self.holdsLogicalAbsent(json) { refused.append(file) }
        }
        #expect(refused == [])
    }

    /// Whether `json` holds an `and` or `or` array with `{"absent": ...}` among its members, at any depth.
    private static func holdsLogicalAbsent(_ json: JSONValue) -> Bool {
        switch json {
        case .object(let members):
            for (key, value) in members {
                if key == "and" || key == "or", case .array(let operands) = value,
                    operands.contains(where: { $0.objectValue?["absent"] != nil })
                {
                    return true
                }
                if holdsLogicalAbsent(value) { return true }
            }
            return false
        case .array(let items): return items.contains { holdsLogicalAbsent($0) }
        default: return false
        }
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
        #expect(templated.count == 49, "one templated stub per list the root index names")
        let onlyTemplates = StubStore(root: nil)
        for stub in templated { onlyTemplates.add(stub) }
        let rendering = StubEngine(store: onlyTemplates, journalCapacity: 0)
        let pages = result.stubs.filter { !$0.request.queryParameters.isEmpty && $0.response.template == nil }
        #expect(pages.count > 400)
        // The first pages, the last one (its limit clipped) and the whole list of each, with offset and limit
        // given or left out: every kind of page, without rendering the longest lists a hundred times over in a
        // debug build.
        let sample = pages.filter { page in
            let query = (page.name ?? "").split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
            let parameters = query.split(separator: "&")
            let early = ["offset=0", "offset=20", "offset=40"].contains { parameters.contains($0) }
            return early || !query.contains("offset=")
                || !(parameters.contains("limit=20") || !query.contains("limit="))
        }
        // The seven lists with resources by name have plain pages, at both path forms: at least the first page
        // four ways (offset and limit each given or left out) and the whole list two ways.
        #expect(sample.count >= 6 * 2 * 7)
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

    /// The dump's JSON with its links made absolute as pokeapi.co sends them (the generator's deploy regex).
    private func dumpJSON(_ path: String) throws -> JSONValue {
        let data = try Data(contentsOf: URL(fileURLWithPath: Repository.pokeAPIDump + "/api/v2/" + path))
        let text = String(decoding: data, as: UTF8.self)
            .replacingOccurrences(of: "\"/api/v2", with: "\"https://pokeapi.co/api/v2")
        return try JSONValue.parse(text)
    }

    /// The dump's folders under `api/v2/<endpoint>/` named by an id.
    private func dumpIDs(_ endpoint: String) throws -> [Int] {
        try FileManager.default.contentsOfDirectory(atPath: Repository.pokeAPIDump + "/api/v2/" + endpoint)
            .compactMap { Int($0) }.sorted()
    }

    /// An engine over the shipped stubs, and the status and body of its answer to a GET.
    private struct Shipped {
        let engine: StubEngine

        init() {
            let store = StubStore(root: Repository.stubs)
            store.reload()
            engine = StubEngine(store: store, journalCapacity: 0)
        }

        func get(_ url: String) -> (status: Int, body: Data) {
            guard case .response(let response) = engine.handle(HTTPRequest(method: "GET", rawURL: url)) else {
                return (0, Data())
            }
            return (response.status, response.body.data)
        }
    }

    @Test("every list the root index names answers at both path forms: the first page, and all of it with limit")
    func everyList() throws {
        let shipped = Shipped()
        let root = try #require(try dumpJSON("index.json").objectValue)
        let lists = root.keys.filter { $0 != "meta" }.sorted()
        #expect(lists.count == 49)
        for endpoint in lists {
            let whole = try dumpJSON(endpoint + "/index.json")
            let all = try #require(whole["results"]?.arrayValue, "\(endpoint)")
            for path in ["/api/v2/\(endpoint)/", "/api/v2/\(endpoint)"] {
                let first = shipped.get(path)
                #expect(first.status == 200, "\(path)")
                let page = try JSONValue.parse(first.body)
                #expect(page["count"] == whole["count"], "\(path)")
                #expect(page["results"]?.arrayValue == Array(all.prefix(20)), "\(path)")
                #expect(page["previous"] == .null, "\(path)")
                let everything = shipped.get("\(path)?limit=\(all.count)")
                #expect(everything.status == 200, "\(path)?limit=\(all.count)")
                #expect(try JSONValue.parse(everything.body)["results"]?.arrayValue == all, "\(path): every result")
            }
        }
    }

    @Test("every resource of the dump answers by id and by name with one body, encounters too, and meta")
    func everyResource() throws {
        let shipped = Shipped()
        let named = ["pokemon", "pokemon-species", "type", "ability", "berry", "move", "generation"]
        for endpoint in named + ["evolution-chain"] {
            let ids = try dumpIDs(endpoint)
            #expect(!ids.isEmpty, "\(endpoint)")
            for id in ids {
                let byID = shipped.get("/api/v2/\(endpoint)/\(id)/")
                #expect(byID.status == 200, "\(endpoint)/\(id)")
                let body = try JSONValue.parse(byID.body)
                #expect(body["id"] == .integer(Int64(id)), "\(endpoint)/\(id)")
                #expect(shipped.get("/api/v2/\(endpoint)/\(id)").body == byID.body, "\(endpoint)/\(id) without /")
                guard named.contains(endpoint), let name = body["name"]?.stringValue else { continue }
                #expect(shipped.get("/api/v2/\(endpoint)/\(name)/").body == byID.body, "\(endpoint)/\(name)")
                guard endpoint == "pokemon" else { continue }
                let encounters = shipped.get("/api/v2/pokemon/\(id)/encounters")
                #expect(encounters.status == 200, "pokemon/\(id)/encounters")
                for form in ["/api/v2/pokemon/\(name)/encounters", "/api/v2/pokemon/\(name)/encounters/"] {
                    #expect(shipped.get(form).body == encounters.body, "\(form)")
                }
            }
        }
        let meta = shipped.get("/api/v2/meta/")
        #expect(meta.status == 200)
        #expect(try JSONValue.parse(meta.body) == dumpJSON("meta/index.json"))
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
