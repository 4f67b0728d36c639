import Foundation
import PokestubCore
import PokestubTestSupport
import Testing

@Suite("Serving the shipped PokeAPI stubs")
struct ShippedStubsTests {
    @Test("GET /api/v2/pokemon lists bulbasaur and ivysaur, and the journal shows exactly that request")
    func seedScenario() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            let response = try await server.send("GET", "/api/v2/pokemon")
            #expect(response.status == 200)
            let list = try response.json()
            let names = list["results"].flatMap { value -> [String]? in
                guard case .array(let items) = value else { return nil }
                return items.compactMap { $0["name"]?.stringValue }
            }
            #expect(names?.prefix(2) == ["bulbasaur", "ivysaur"])
            #expect(list["count"] == .integer(1351))

            let (status, journal) = try await server.admin("GET", "/requests")
            #expect(status == 200)
            guard case .array(let requests)? = journal["requests"] else {
                Issue.record("no requests array in \(journal)")
                return
            }
            #expect(requests.count == 1)
            let event = try #require(requests.first)
            #expect(event["request"]?["url"] == .string("/api/v2/pokemon"))
            #expect(event["request"]?["method"] == .string("GET"))
            #expect(event["response"]?["status"] == .integer(200))
            #expect(event["wasMatched"] == .bool(true))
            #expect(event["stubMapping"]?["id"]?.stringValue == response.header("Matched-Stub-Id"))
        }
    }

    @Test("a resource body is served byte for byte as the body file, with its Content-Length")
    func byteExactResource() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            let expected = try Data(contentsOf: URL(fileURLWithPath: Repository.stubs + "/__files/pokemon/1.json"))
            for path in ["/api/v2/pokemon/1/", "/api/v2/pokemon/1", "/api/v2/pokemon/bulbasaur/"] {
                let response = try await server.send("GET", path)
                #expect(response.status == 200, "\(path)")
                #expect(response.body == expected, "\(path)")
                #expect(response.header("Content-Length") == String(expected.count))
                #expect(response.header("Content-Type") == "application/json; charset=utf-8")
            }
        }
    }

    @Test("list pages follow pokeapi.co's pagination, whatever the order of offset and limit")
    func pagination() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            let page = try await server.send("GET", "/api/v2/pokemon/?offset=20&limit=20").json()
            #expect(page["next"] == .string("https://pokeapi.co/api/v2/pokemon/?offset=40&limit=20"))
            #expect(page["previous"] == .string("https://pokeapi.co/api/v2/pokemon/?offset=0&limit=20"))
            let swapped = try await server.send("GET", "/api/v2/pokemon/?limit=20&offset=20").json()
            #expect(swapped == page)
            let first = try await server.send("GET", "/api/v2/pokemon/?limit=20").json()
            #expect(first["previous"] == .null)
            let whole = try await server.send("GET", "/api/v2/pokemon/?limit=1351").json()
            if case .array(let results)? = whole["results"] {
                #expect(results.count == 1351)
            } else {
                Issue.record("no results")
            }
        }
    }

    @Test("a UTF-8 species name decodes from the stored body")
    func utf8Body() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            let response = try await server.send("GET", "/api/v2/pokemon-species/669/")
            #expect(response.status == 200)
            #expect(response.text.contains("\"name\":\"Flabébé\""))
        }
    }

    @Test("an unknown pokemon gets 404 naming the closest stubs and the field that differs")
    func nearMissOnShippedStubs() async throws {
        try await LiveServer.with(stubRoot: Repository.stubs) { server in
            let response = try await server.send("GET", "/api/v2/pokemon/9999/")
            #expect(response.status == 404)
            #expect(response.text.hasPrefix("No stub matched GET /api/v2/pokemon/9999/"))
            #expect(response.text.contains("urlPath: expected \"/api/v2/pokemon/"))
            #expect(response.header("Content-Type") == "text/plain; charset=utf-8")
        }
    }
}
