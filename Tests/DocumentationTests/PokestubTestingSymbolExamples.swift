import Foundation
import PokemonClient
import PokestubClient
import PokestubTestSupport
import PokestubTesting
import Testing

// The examples in the documentation comments of Sources/PokestubTesting, run.

@Suite("PokestubTesting: symbol documentation")
struct PokestubTestingSymbolExamples {
    @Test("the list screen shows the first page")
    func listScreen() async throws {
        let list = StubBuilder.get("/api/v2/pokemon/")
            .withQueryParameter("limit", .equalTo("20"))
            .willReturn(
                .json([
                    "count": 1, "next": nil, "previous": nil,
                    "results": [["name": "bulbasaur", "url": "https://pokeapi.co/api/v2/pokemon/1/"]],
                ]))
        try await withStubServer(mappings: [list]) { server in
            let client = try PokemonClient(environment: server.environment)
            let page = try await client.pokemonPage(offset: 0, limit: 20)
            #expect(page.results.map(\.name) == ["bulbasaur"])
            try await server.admin.verify(count: 1, .get("/api/v2/pokemon/"))
        }
    }

    @Test("a server handed to the body answers the client it configures")
    func server() async throws {
        let stub = try StubBuilder.get("/api/v2/pokemon/").willReturn(.json(encoding: PagedList.samplePokemonList))
        try await withStubServer(mappings: [stub]) { server in
            let client = try PokemonClient(environment: server.environment)
            _ = try await client.pokemonPage(offset: 0, limit: 20)
            try await server.admin.verify(count: 1, .get("/api/v2/pokemon/"))
        }
    }

    @Test("a route reads its :name segments and the query")
    func echoRoute() async throws {
        let echo = StubRoute("GET /api/v2/pokemon/:id") { request in
            .json([
                "id": .string(request.parameters["id"] ?? ""),
                "limit": .string(request.queryValues("limit").first ?? "20"),
            ])
        }
        try await withStubServer(routes: [echo]) { server in
            let echoed = try await HTTPFetch.send(server.url("/api/v2/pokemon/7/?limit=5"))
            #expect(try JSONValue(parsing: echoed.body) == ["id": "7", "limit": "5"])
        }
    }

    @Test("a route answers 400 for what it cannot read")
    func numberRoute() async throws {
        let pokemon = StubRoute("GET /api/v2/pokemon/:id") { request in
            guard let id = request.parameters["id"], let number = Int(id) else { return .text("no id", status: 400) }
            return .json(["id": .integer(Int64(number)), "name": "pokemon \(id)"])
        }
        try await withStubServer(routes: [pokemon]) { server in
            let twelve = try await HTTPFetch.send(server.url("/api/v2/pokemon/12/"))
            #expect(try JSONValue(parsing: twelve.body) == ["id": 12, "name": "pokemon 12"])
            #expect(try await HTTPFetch.send(server.url("/api/v2/pokemon/x/")).status == 400)
        }
    }

    @Test("a route answers with an encoded model")
    func encodedRoute() async throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let pikachu = StubRoute("GET /api/v2/pokemon/25") { _ in
            try .json(encoding: Pokemon.pikachu, encoder: encoder)
        }
        try await withStubServer(routes: [pikachu]) { server in
            let client = try PokemonClient(environment: server.environment)
            #expect(try await client.pokemon(id: 25) == Pokemon.pikachu)
        }
    }

    @Test("a route appended while the server runs")
    func appendedRoute() async throws {
        try await withStubServer { server in
            server.appendRoute("GET /api/v2/pokemon/:id") { request in
                .json(["id": .string(request.parameters["id"] ?? "")])
            }
            let answer = try await HTTPFetch.send(server.url("/api/v2/pokemon/9/"))
            #expect(try JSONValue(parsing: answer.body) == ["id": "9"])
        }
    }

    @Test("the response factories set status, body and content type")
    func responses() throws {
        let pngBytes = Data([0x89, 0x50, 0x4E, 0x47])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("1-\(UUID().uuidString).json")
        try Data(#"{"id": 1}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let created = RouteResponse(status: 201)
        let plain = RouteResponse(body: "plain bytes")
        let page = RouteResponse.json(["count": 0, "next": nil, "previous": nil, "results": []])
        let missing = RouteResponse.text("Not Found", status: 404)
        let image = RouteResponse.data(pngBytes, contentType: "image/png")
        let stored = try RouteResponse.file(file)  // a file URL, read now

        #expect(created.status == 201 && plain.body == Data("plain bytes".utf8))
        #expect(page.headers["Content-Type"] == "application/json" && missing.status == 404)
        #expect(image.headers["Content-Type"] == "image/png" && stored.body == Data(#"{"id": 1}"#.utf8))
    }
}
